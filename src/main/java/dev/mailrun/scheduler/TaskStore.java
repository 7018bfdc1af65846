package dev.mailrun.scheduler;

import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/** Creating, reading and steering tasks: the operator's side of the task table. */
public final class TaskStore {

    private final DataSource dataSource;
    private final TaskTable tasks = new TaskTable();
    private final TaskRunTable runs = new TaskRunTable();

    public TaskStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Creates a task; fails if one with that name exists. */
    public Task create(NewTask task) throws SQLException {
        try {
            return Transactions.inTransaction(dataSource, c -> {
                tasks.insert(c, task);
                return tasks.findByName(c, task.name()).orElseThrow();
            });
        } catch (SQLIntegrityConstraintViolationException e) {
            throw new IllegalStateException("a task named '" + task.name() + "' already exists; use upsert to change "
                    + "its definition", e);
        }
    }

    /**
     * Creates the task, or updates the definition (description, handler, interval, misfire policy and
     * threshold) of an existing one, leaving its metadata, schedule, enabled flag and live run alone.
     */
    public Task upsert(NewTask task) throws SQLException {
        return Transactions.inTransaction(dataSource, c -> {
            tasks.upsert(c, task);
            return tasks.findByName(c, task.name()).orElseThrow();
        });
    }

    public Optional<Task> find(String name) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return tasks.findByName(c, name);
        }
    }

    public Optional<Task> find(long id) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return tasks.findById(c, id);
        }
    }

    public List<Task> list() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return tasks.list(c);
        }
    }

    /** False when no task has that name. A live run finishes; a disabled task is not picked again. */
    public boolean setEnabled(String name, boolean enabled) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return tasks.setEnabled(c, name, enabled) == 1;
        }
    }

    /** What {@link #remove} did. */
    public enum Removal {
        REMOVED,
        NO_SUCH_TASK,
        /** A run holds the task (live, or dead and not yet taken over): its clean-up needs the row. */
        RUN_IN_PROGRESS
    }

    /** Deletes a task and its run history, unless a run holds it. */
    public Removal remove(String name) throws SQLException {
        return Transactions.inTransaction(dataSource, c -> {
            if (tasks.deleteIdle(c, name) == 1) {
                return Removal.REMOVED;
            }
            return tasks.findByName(c, name).isPresent() ? Removal.RUN_IN_PROGRESS : Removal.NO_SUCH_TASK;
        });
    }

    /** The outcome of each task's newest {@code task_run} row, by task name; tasks never ticked are absent. */
    public Map<String, RunOutcome> lastOutcomes() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            Map<Long, RunOutcome> byId = runs.lastOutcomes(c);
            Map<String, RunOutcome> byName = new HashMap<>();
            for (Task t : tasks.list(c)) {
                RunOutcome outcome = byId.get(t.id());
                if (outcome != null) {
                    byName.put(t.name(), outcome);
                }
            }
            return byName;
        }
    }

    /**
     * Moves the next slot (e.g. to now: "run now"); later slots follow from it. A live run's finish
     * overwrites it. False when no task has that name.
     */
    boolean setNextRunAt(String name, Instant at) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return tasks.setNextRunAt(c, name, at, null) == 1;
        }
    }

    /**
     * Sets the next slot at {@code now} (the scheduler's clock) for an operator's action, such as a
     * campaign's start: {@code slot} may have begun already. The slots that began before {@code now}
     * were never passed over by a tick, so the next tick does not record them as missed
     * ({@link Slots#plan(Instant, Duration, Duration, MisfirePolicy, Instant, Instant)}).
     */
    public boolean scheduleFrom(String name, Instant slot, Instant now) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return tasks.setNextRunAt(c, name, slot, java.util.Objects.requireNonNull(now, "now")) == 1;
        }
    }

    /** The last {@code limit} task_run rows of a task, newest first; empty when no task has that name. */
    public List<TaskRun> recentRuns(String name, int limit) throws SQLException {
        return recent(name, limit, true);
    }

    /**
     * The last {@code limit} task_run rows of a task other than {@code idle} runs, newest first: what the
     * task did and decided, without the runs that found nothing to do (a paused campaign's ticks), which
     * would otherwise push its real runs out of a short list.
     */
    public List<TaskRun> recentWork(String name, int limit) throws SQLException {
        return recent(name, limit, false);
    }

    private List<TaskRun> recent(String name, int limit, boolean withIdle) throws SQLException {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        try (Connection c = dataSource.getConnection()) {
            Optional<Task> task = tasks.findByName(c, name);
            return task.isEmpty() ? List.of() : runs.recent(c, task.get().id(), limit, withIdle);
        }
    }
}
