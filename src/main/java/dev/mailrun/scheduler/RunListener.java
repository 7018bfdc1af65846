package dev.mailrun.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Told what the {@link Scheduler} did, once it is in {@code task_run} (metrics count it). Called on the
 * scheduler's threads: an implementation must be quick, thread-safe and must never throw.
 */
public interface RunListener {

    RunListener NONE = new RunListener() {};

    /**
     * A run this scheduler held finished and its {@code task_run} row says so.
     *
     * @param outcome  succeeded, idle, blocked, failed or stopped
     * @param duration from claim to finish, on the scheduler's clock
     * @param overrun  how far past its deadline it finished, on the scheduler's clock; zero when in time
     */
    record FinishedRun(String task, RunOutcome outcome, Instant finishedAt, Duration duration, Duration overrun,
                       RunReport report) {}

    default void runFinished(FinishedRun run) {}

    /**
     * A row of {@code task_run} that records no run of this scheduler's: skipped_overlap,
     * skipped_no_handler, misfired, or abandoned (a dead run taken over).
     */
    default void decision(String task, RunOutcome outcome) {}

    /** The live run's lease heartbeat fired: the scheduler is at work, even while the tick loop waits for the run. */
    default void heartbeat(String task) {}

    /** Tells every listener in turn. */
    static RunListener all(List<RunListener> listeners) {
        List<RunListener> copy = List.copyOf(listeners);
        return new RunListener() {
            @Override
            public void runFinished(FinishedRun run) {
                copy.forEach(l -> l.runFinished(run));
            }

            @Override
            public void decision(String task, RunOutcome outcome) {
                copy.forEach(l -> l.decision(task, outcome));
            }

            @Override
            public void heartbeat(String task) {
                copy.forEach(l -> l.heartbeat(task));
            }
        };
    }
}
