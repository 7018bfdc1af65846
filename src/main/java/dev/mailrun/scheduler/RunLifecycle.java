package dev.mailrun.scheduler;

import dev.mailrun.db.Transactions;
import dev.mailrun.timebox.SafetyMargins;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of a claimed run, for {@link Scheduler}: its margin and deadline, the handler on the
 * tick's thread with the lease heartbeat beside it, and the finish that records the outcome and sets
 * the next slot. The scheduler decides whether and what to claim; this class runs what it claimed.
 */
final class RunLifecycle {

    private static final Logger log = LoggerFactory.getLogger(Scheduler.class);

    /** How a run began: how late after its slot it was claimed, and how much of that was the wait for the previous run. */
    record Start(Duration late, Duration waited) {}

    private final DataSource dataSource;
    private final HandlerRegistry handlers;
    private final SchedulerConfig config;
    private final Clock clock;
    private final TaskTable tasks;
    private final TaskRunTable runs;
    private final RunListener listener;
    private final BooleanSupplier stopping;
    private final ScheduledExecutorService heartbeats;
    /**
     * Per task, how long after its deadline the last run this scheduler finished released the task,
     * waiting for the task's next claim here to pair it with that run's lateness.
     */
    private final Map<Long, Duration> releases = new ConcurrentHashMap<>();
    private volatile LiveRun current;

    /** @param stopping whether the scheduler is stopping: a run that starts then is asked to stop at once */
    RunLifecycle(DataSource dataSource, HandlerRegistry handlers, SchedulerConfig config, Clock clock, TaskTable tasks,
                 TaskRunTable runs, RunListener listener, BooleanSupplier stopping) {
        this.dataSource = dataSource;
        this.handlers = handlers;
        this.config = config;
        this.clock = clock;
        this.tasks = tasks;
        this.runs = runs;
        this.listener = listener;
        this.stopping = stopping;
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mailrun-heartbeat");
            t.setDaemon(true);
            return t;
        });
    }

    /** The run in progress, if any. */
    Optional<LiveRun> current() {
        return Optional.ofNullable(current);
    }

    /** Ends the heartbeat thread; no run starts after this. */
    void close() {
        heartbeats.shutdownNow();
    }

    LiveRun newRun(TaskTable.DueTask task, String token, Instant slot, TaskTable.Claimed row, Duration margin) {
        Instant deadline = slot.plus(task.interval()).minus(margin);
        return new LiveRun(dataSource, tasks, task, token, slot, deadline, config.lease(), clock, row);
    }

    /**
     * This run's margin. The previous run's release time, when this scheduler finished it, pairs with
     * this run's lateness as one more sample in the task's metadata (saved by the run's checkpoints and
     * finish). A run after missed slots adds no sample: its lateness is downtime, not a cost of a tick.
     */
    Duration margin(TaskTable.DueTask task, Slots.Plan plan, TaskTable.Claimed row, Start start) {
        Duration cap = config.safetyMargin().of(task.interval());
        // Nothing measured yet: when this tick's successor waits for a late release, a first guess
        // costs at most that wait; without the wait only the bound is safe.
        Duration unmeasured = config.overlapWait().compareTo(SafetyMargins.FIRST_GUESS) >= 0
                ? SafetyMargins.FIRST_GUESS : cap;
        SafetyMargins margins = SafetyMargins.upTo(cap, unmeasured);
        Duration release = releases.remove(task.id());
        if (release != null && plan.missedSlots() == 0) {
            RunMargin.record(row.metadata(), start.late(), release);
        }
        return margins.of(RunMargin.stats(row.metadata(), margins));
    }

    /** Runs {@code run}'s handler on this thread while the heartbeat thread extends its lease, then finishes it. */
    TickSummary.Entry run(LiveRun run) throws SQLException {
        TaskTable.DueTask task = run.task();
        current = run;
        if (stopping.getAsBoolean()) {
            run.requestShutdown();
        }
        long period = config.heartbeatInterval().toMillis();
        ScheduledFuture<?> heartbeat = null;
        Instant claimedAt = clock.instant();
        try {
            heartbeat = heartbeats.scheduleAtFixedRate(() -> {
                run.heartbeatQuietly();
                tell(() -> listener.heartbeat(task.name()));
            }, period, period, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // Shut down past its grace while claiming: the lease was cut short and the stop is requested.
            run.requestShutdown();
        }
        Throwable failure = null;
        try {
            TaskHandler handler = handlers.find(task.handler()).orElseThrow(() -> new IllegalStateException(
                    "no handler named '" + task.handler() + "' is registered in this worker (registered: "
                            + handlers.names() + "); the task was not run"));
            handler.run(run);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable t) {
            failure = t;
        } finally {
            if (heartbeat != null) {
                heartbeat.cancel(false);
            }
        }
        try {
            return finish(run, failure, claimedAt);
        } finally {
            run.markFinished();
            current = null;
        }
    }

    private TickSummary.Entry finish(LiveRun run, Throwable failure, Instant claimedAt) throws SQLException {
        TaskTable.DueTask task = run.task();
        String token = run.runToken();
        RunOutcome outcome = failure != null ? RunOutcome.FAILED
                : run.shutdownRequested() ? RunOutcome.STOPPED : run.declaredOutcome().orElse(RunOutcome.SUCCEEDED);
        ErrorLog error = failure == null ? null : ErrorLog.of(failure, token, clock.instant());
        int failures = failure == null ? 0 : run.failuresBefore() + 1;
        Instant next = failure != null
                ? Slots.afterFailure(run.scheduledFor(), task.interval(), failures, config.maxBackoff())
                : run.nextRunOverride().orElse(run.scheduledFor().plus(task.interval()));
        boolean disable = failure == null && run.disableRequested();
        String metadata = failure == null ? run.metadata().toJson() : null;
        boolean finished = Transactions.inTransaction(dataSource, c -> {
            if (tasks.finish(c, task.id(), token, next, disable, failures, error == null ? null : Json.write(error),
                    metadata) == 0) {
                return false;
            }
            runs.finish(c, token, outcome, tasks.lastFinishedAt(c, task.id()), run.lastReport(),
                    error == null ? null : error.describe());
            return true;
        });
        if (!finished) {
            log.warn("Task '{}' run {} lost its lease before finishing; its outcome ({}) was discarded",
                    task.name(), token, outcome);
            return new TickSummary.Entry(task.name(), RunOutcome.ABANDONED, Optional.of(token),
                    "lease lost before finish; " + outcome.dbValue() + " discarded");
        }
        Instant finishedAt = clock.instant();
        rememberRelease(run, outcome, finishedAt);
        Duration overrun = finishedAt.isAfter(run.deadline()) ? Duration.between(run.deadline(), finishedAt) : Duration.ZERO;
        tell(() -> listener.runFinished(new RunListener.FinishedRun(task.name(), outcome, finishedAt,
                Duration.between(claimedAt, finishedAt), overrun, run.lastReport())));
        if (failure != null) {
            log.error("Task '{}' run {} failed ({} in a row); next run at {}", task.name(), token, failures, next,
                    failure);
        } else {
            log.info("Task '{}' run {} {}; next run at {}{}", task.name(), token, outcome.dbValue(), next,
                    disable ? " (task disabled)" : "");
        }
        return new TickSummary.Entry(task.name(), outcome, Optional.of(token),
                failure == null ? "next " + next : failure.toString());
    }

    /**
     * Keeps how long after its deadline a run whose handler returned released the task, for the task's
     * next claim here. A run that ended well before its deadline (work done, paused) says nothing about
     * how long a run that uses its whole window takes to release, so it adds nothing.
     */
    private void rememberRelease(LiveRun run, RunOutcome outcome, Instant releasedAt) {
        Duration cap = config.safetyMargin().of(run.task().interval());
        if (outcome.returned() && !releasedAt.isBefore(run.deadline().minus(cap))) {
            releases.put(run.task().id(), Duration.between(run.deadline(), releasedAt));
        } else {
            releases.remove(run.task().id());
        }
    }

    /** A listener that fails is logged; it must never change what the scheduler does. */
    static void tell(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            log.warn("Run listener failed: {}", e.toString());
        }
    }
}
