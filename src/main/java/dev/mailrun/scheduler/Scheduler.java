package dev.mailrun.scheduler;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs due tasks, one tick at a time, with at most one live run per task across all workers.
 *
 * <p>A tick, for each enabled task whose {@code next_run_at} is at or before the clock's now:
 * <ol>
 *   <li>If another run holds a live lease: when that run serves the slot before this one (it is
 *       releasing the task), wait for it up to {@code overlapWait}, re-reading the task every
 *       {@link #POLL} by the database clock; if it still holds the task, or serves this very slot,
 *       record {@code skipped_overlap} and move on. The wait is part of the new run's window: its
 *       deadline does not move.</li>
 *   <li>If this worker has no handler for the task, log one warning, record {@code skipped_no_handler}
 *       and leave the task due.</li>
 *   <li>Plan the slot (misfire policy, see {@link Slots#plan}).</li>
 *   <li>Claim: one conditional UPDATE that sets a fresh run token and a lease measured by the database
 *       clock. Zero rows means another worker won; that is normal and yields nothing. Taking over an
 *       expired lease marks the dead run {@code abandoned} and calls the handler's
 *       {@link TaskHandler#onAbandoned} in the same transaction.</li>
 *   <li>Run the handler on this thread while a heartbeat thread extends the lease ({@link RunLifecycle}). Its deadline is
 *       {@code slot + interval − margin}, the margin derived from the task's measured lateness and
 *       release times ({@link RunMargin}, {@link dev.mailrun.timebox.SafetyMargins}) and at most the configured one.</li>
 *   <li>Finish: one UPDATE conditional on the run token clears the run and sets the next slot
 *       (slot + interval, the handler's override, or a backoff after failure) and, on success, the
 *       metadata. Zero rows means the run was a zombie: nothing it wrote after losing the lease stuck.</li>
 * </ol>
 *
 * <p>Clocks: due-ness, slots and deadlines use the injected {@link Clock}; leases and run start/finish
 * times use the database's {@code UTC_TIMESTAMP(3)}. Ticks of one scheduler are serialised.
 *
 * <p>Over 250 lines as one piece: a tick's decisions (the overlap wait, the handler look-up, the slot
 * plan, the claim) share one read of the task row and one serialised tick; the life of a claimed run
 * is in {@link RunLifecycle}.
 */
public final class Scheduler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Scheduler.class);

    private final DataSource dataSource;
    private final HandlerRegistry handlers;
    private final SchedulerConfig config;
    private final Clock clock;
    private final TaskTable tasks = new TaskTable();
    private final TaskRunTable runs = new TaskRunTable();
    private final ReentrantLock tickLock = new ReentrantLock();
    /** Rows of run history deleted per tick at most; many times what a tick adds. */
    static final int PRUNE_PER_TICK = 1_000;
    /** How often a tick waiting for the previous run re-reads the task. */
    static final Duration POLL = Duration.ofMillis(25);
    private final RunListener listener;
    private final Sleeper sleeper;
    private final RunLifecycle lifecycle;
    private volatile boolean stopping;

    /** The pool needs two connections per scheduler: the handler's and the heartbeat's. */
    public Scheduler(DataSource dataSource, HandlerRegistry handlers, SchedulerConfig config, Clock clock) {
        this(dataSource, handlers, config, clock, RunListener.NONE);
    }

    /** @param listener told about every run and decision once it is recorded */
    public Scheduler(DataSource dataSource, HandlerRegistry handlers, SchedulerConfig config, Clock clock,
                     RunListener listener) {
        this(dataSource, handlers, config, clock, listener, Sleeper.onClock(clock));
    }

    /** @param sleeper how a tick waits for a previous run to release its task ({@code overlapWait}) */
    public Scheduler(DataSource dataSource, HandlerRegistry handlers, SchedulerConfig config, Clock clock,
                     RunListener listener, Sleeper sleeper) {
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.handlers = Objects.requireNonNull(handlers, "handlers");
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.lifecycle = new RunLifecycle(dataSource, handlers, config, clock, tasks, runs, listener, () -> stopping);
    }

    SchedulerConfig config() {
        return config;
    }

    /**
     * Runs every due task this worker can claim, one after another, and returns what happened.
     * Problems with one task are logged and reported in the summary; the others still run. After
     * {@link #shutdown} it does nothing.
     *
     * @throws SQLException when the due tasks cannot even be listed
     */
    public TickSummary tick() throws SQLException {
        tickLock.lock();
        try {
            Instant at = clock.instant();
            List<TickSummary.Entry> entries = new ArrayList<>();
            if (stopping) {
                return new TickSummary(at, entries);
            }
            pruneHistory();
            List<TaskTable.DueTask> due;
            try (Connection c = dataSource.getConnection()) {
                due = tasks.due(c, at, config.maxTasksPerTick());
            }
            for (TaskTable.DueTask task : due) {
                if (stopping) {
                    break;
                }
                try {
                    process(task, entries);
                } catch (SQLException | RuntimeException e) {
                    log.error("Tick could not handle task '{}': {}", task.name(), e.toString(), e);
                    entries.add(new TickSummary.Entry(task.name(), RunOutcome.FAILED, Optional.empty(),
                            "tick error: " + e));
                }
            }
            return new TickSummary(at, entries);
        } finally {
            tickLock.unlock();
        }
    }

    /**
     * Deletes run history older than {@code runHistory}, a bounded number of rows per tick so a
     * tick never waits on a large delete; a tick adds at most {@code maxTasksPerTick} rows, so the
     * history still shrinks. A failure here is logged and does not stop the tick.
     */
    private void pruneHistory() {
        if (config.runHistory().isZero()) {
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            int deleted = runs.prune(c, config.runHistory(), PRUNE_PER_TICK);
            if (deleted > 0) {
                log.debug("Deleted {} task_run row(s) older than {}", deleted, config.runHistory());
            }
        } catch (SQLException e) {
            log.warn("Could not prune the run history: {}", e.toString());
        }
    }

    private void process(TaskTable.DueTask seen, List<TickSummary.Entry> entries) throws SQLException {
        TaskTable.DueTask task = seen;
        Duration waited = Duration.ZERO;
        if (seen.isLive()) {
            Instant waitStart = clock.instant();
            Optional<TaskTable.DueTask> freed = seen.isReleasing(waitStart) ? awaitRelease(seen, waitStart)
                    : Optional.of(seen);
            waited = Duration.between(waitStart, clock.instant());
            if (freed.isEmpty()) {
                return; // no longer due: the run that released it moved the schedule on
            }
            task = freed.get();
            if (task.isLive()) {
                entries.add(recordOverlap(task, new RunLease(task.runToken(), task.owner(), null, null,
                        task.heartbeatAt(), null), waited));
                return;
            }
        }
        if (handlers.find(task.handler()).isEmpty()) {
            entries.add(skipUnhandled(task));
            return;
        }
        Instant now = clock.instant();
        Slots.Plan plan = Slots.unlessTooShort(Slots.plan(task.nextRunAt(), task.interval(), task.misfireThreshold(),
                task.misfirePolicy(), now, task.nextRunSetAt()), task.interval(), config.safetyMargin().of(task.interval()), now);
        String token = UUID.randomUUID().toString();
        Optional<LiveRun> claimed = claim(task, plan, token, new RunLifecycle.Start(Duration.between(plan.slot(), now), waited));
        if (claimed.isEmpty()) {
            Optional<RunLease> holder;
            try (Connection c = dataSource.getConnection()) {
                holder = tasks.liveRun(c, task.id());
            }
            TaskTable.DueTask lost = task;
            Duration w = waited;
            holder.ifPresent(h -> entries.add(recordOverlapQuietly(lost, h, w)));
            return;
        }
        if (task.runToken() != null) {
            String name = task.name();
            RunLifecycle.tell(() -> listener.decision(name, RunOutcome.ABANDONED));
            entries.add(new TickSummary.Entry(task.name(), RunOutcome.ABANDONED, Optional.of(task.runToken()),
                    "lease of " + task.owner() + " expired; taken over"));
        }
        if (plan.missedSlots() > 0) {
            String name = task.name();
            RunLifecycle.tell(() -> listener.decision(name, RunOutcome.MISFIRED));
            entries.add(new TickSummary.Entry(task.name(), RunOutcome.MISFIRED, Optional.empty(),
                    plan.missedSlots() + " slot(s) from " + plan.firstMissed() + " skipped"));
        }
        if (plan.run()) {
            entries.add(lifecycle.run(claimed.get()));
        }
    }

    /**
     * Waits, up to {@code overlapWait} from {@code since}, for the run holding {@code task} to release
     * it, re-reading the task every {@link #POLL}. Returns the task as last read (still live when the
     * wait ran out), or empty when it is no longer due.
     */
    private Optional<TaskTable.DueTask> awaitRelease(TaskTable.DueTask task, Instant since) throws SQLException {
        Instant until = since.plus(config.overlapWait());
        TaskTable.DueTask last = task;
        while (!stopping) {
            Instant now = clock.instant();
            if (!now.isBefore(until)) {
                return Optional.of(last);
            }
            Instant step = now.plus(POLL);
            try {
                sleeper.sleepUntil(step.isBefore(until) ? step : until);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.of(last);
            }
            Optional<TaskTable.DueTask> fresh;
            try (Connection c = dataSource.getConnection()) {
                fresh = tasks.due(c, task.id(), clock.instant());
            }
            if (fresh.isEmpty() || !fresh.get().isLive()) {
                return fresh;
            }
            last = fresh.get();
        }
        return Optional.of(last);
    }

    /** The claim transaction; empty when another worker won. */
    private Optional<LiveRun> claim(TaskTable.DueTask task, Slots.Plan plan, String token, RunLifecycle.Start start)
            throws SQLException {
        return Transactions.inTransaction(dataSource, c -> {
            if (tasks.claim(c, task, token, config.owner(), plan.slot(), config.lease(), plan.run()) == 0) {
                return Optional.empty();
            }
            TaskTable.Claimed row = tasks.readClaimed(c, task.id());
            if (task.runToken() != null) {
                takeOverAbandoned(c, task, row);
            }
            if (!plan.run()) {
                // SKIP_TO_NEXT_SLOT: the claim only serialises the decision; release it at once.
                runs.insertDecision(c, task.id(), token, config.owner(), plan.firstMissed(), RunOutcome.MISFIRED,
                        misfireSummary(plan, task.misfirePolicy()));
                tasks.finish(c, task.id(), token, plan.nextIfSkipped(), false, row.consecutiveFailures(), null, null);
                return Optional.of(lifecycle.newRun(task, token, plan.slot(), row, config.safetyMargin().of(task.interval())));
            }
            if (plan.missedSlots() > 0) {
                runs.insertDecision(c, task.id(), null, config.owner(), plan.firstMissed(), RunOutcome.MISFIRED,
                        misfireSummary(plan, task.misfirePolicy()));
            }
            Duration margin = lifecycle.margin(task, plan, row, start);
            LiveRun run = lifecycle.newRun(task, token, plan.slot(), row, margin);
            runs.insertRunning(c, task.id(), token, config.owner(), plan.slot(), row.startedAt(), run.deadline(),
                    new TaskRunTable.Window(start.waited(), margin, row.gap()));
            return Optional.of(run);
        });
    }

    private void takeOverAbandoned(Connection c, TaskTable.DueTask task, TaskTable.Claimed row) throws SQLException {
        Instant takenOverAt = row.startedAt();
        log.warn("Task '{}': run {} of {} stopped heartbeating (last at {}) and its lease expired; taking over",
                task.name(), task.runToken(), task.owner(), task.heartbeatAt());
        runs.markAbandoned(c, task.runToken(), takenOverAt, "lease expired without a heartbeat from " + task.owner()
                + " (last heartbeat " + task.heartbeatAt() + "); taken over by " + config.owner());
        Optional<TaskHandler> handler = handlers.find(task.handler());
        if (handler.isPresent()) {
            handler.get().onAbandoned(c, task.runToken(), row.metadata());
        }
    }

    private TickSummary.Entry recordOverlap(TaskTable.DueTask task, RunLease holder, Duration waited)
            throws SQLException {
        ObjectNode summary = Json.object().put("heldBy", holder.owner()).put("runToken", holder.runToken())
                .put("waitedMs", waited.toMillis());
        try (Connection c = dataSource.getConnection()) {
            runs.insertDecision(c, task.id(), null, config.owner(), task.nextRunAt(), RunOutcome.SKIPPED_OVERLAP, summary);
        }
        RunLifecycle.tell(() -> listener.decision(task.name(), RunOutcome.SKIPPED_OVERLAP));
        return new TickSummary.Entry(task.name(), RunOutcome.SKIPPED_OVERLAP, Optional.of(holder.runToken()),
                "running on " + holder.owner());
    }

    /**
     * A task this worker has no handler for (its handler is not configured here, e.g. the bounce
     * mailbox was removed from the configuration) is not claimed: its schedule and metadata stay as
     * they are, so it runs as soon as a worker with the handler ticks. An expected situation, not a
     * failure: one warning line per tick and one history row, no stack trace, no backoff.
     */
    private TickSummary.Entry skipUnhandled(TaskTable.DueTask task) throws SQLException {
        String detail = "no handler named '" + task.handler() + "' in this worker (registered: "
                + String.join(", ", handlers.names()) + ")";
        log.warn("Task '{}' skipped: {}; it stays due. Configure its handler, or run: mailrun task disable {}",
                task.name(), detail, task.name());
        ObjectNode summary = Json.object().put("handler", task.handler());
        var registered = summary.putArray("registered");
        handlers.names().forEach(registered::add);
        try (Connection c = dataSource.getConnection()) {
            runs.insertDecision(c, task.id(), null, config.owner(), task.nextRunAt(), RunOutcome.SKIPPED_NO_HANDLER,
                    summary);
        }
        RunLifecycle.tell(() -> listener.decision(task.name(), RunOutcome.SKIPPED_NO_HANDLER));
        return new TickSummary.Entry(task.name(), RunOutcome.SKIPPED_NO_HANDLER, Optional.empty(), detail);
    }

    private TickSummary.Entry recordOverlapQuietly(TaskTable.DueTask task, RunLease holder, Duration waited) {
        try {
            return recordOverlap(task, holder, waited);
        } catch (SQLException e) {
            throw new IllegalStateException("could not record the skipped overlap of task '" + task.name() + "'", e);
        }
    }

    private static ObjectNode misfireSummary(Slots.Plan plan, MisfirePolicy policy) {
        return Json.object().put("policy", policy.name()).put("missedSlots", plan.missedSlots())
                .put("firstMissed", plan.firstMissed().toString())
                .put(plan.run() ? "runningSlot" : "nextRunAt",
                        (plan.run() ? plan.slot() : plan.nextIfSkipped()).toString());
    }

    /** Asks the live run (if any) to stop at its next safe point; later ticks do nothing. */
    void requestStop() {
        stopping = true;
        sleeper.wakeUp();
        lifecycle.current().ifPresent(LiveRun::requestShutdown);
    }

    /**
     * Stops: asks the live run to stop, waits up to {@code grace} for it to checkpoint, finish and
     * release its lease. If it does not finish in time its lease is cut short so that the next tick
     * anywhere takes the task over (recording it abandoned) without waiting for the lease to run out.
     *
     * @return true when nothing was running at the end of the grace period
     */
    public boolean shutdown(Duration grace) {
        requestStop();
        boolean idle = false;
        try {
            idle = tickLock.tryLock(Math.max(0, grace.toMillis()), TimeUnit.MILLISECONDS);
            if (idle) {
                tickLock.unlock();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!idle) {
            lifecycle.current().ifPresent(run -> {
                log.warn("Task '{}' run {} did not stop within {}; releasing its lease", run.taskName(),
                        run.runToken(), grace);
                run.expireLeaseQuietly();
            });
        }
        lifecycle.close();
        return idle;
    }

    /** {@code shutdown(Duration.ZERO)}. */
    @Override
    public void close() {
        shutdown(Duration.ZERO);
    }
}
