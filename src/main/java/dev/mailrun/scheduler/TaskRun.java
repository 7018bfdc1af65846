package dev.mailrun.scheduler;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A row of {@code task_run}: one run, or one decision not to run (misfired, skipped_overlap).
 * {@code startedAt}/{@code finishedAt} are database-clock times, {@code scheduledFor}/{@code deadline}
 * scheduler-clock times; in production both clocks agree, in tests only the scheduler's moves.
 * {@code waited} (the tick's wait at the slot for the previous run to release the task), {@code margin}
 * (the safety margin its deadline used) and {@code gap} (database clock: how long the task was free
 * before this run) are present on rows of runs.
 */
public record TaskRun(long id, long taskId, Optional<String> runToken, String owner, Optional<Instant> scheduledFor,
                      Instant startedAt, Optional<Instant> finishedAt, Optional<Instant> deadline, RunOutcome outcome,
                      Optional<ObjectNode> summary, Optional<Long> batches, Optional<Long> items,
                      Optional<Double> utilisation, Optional<Duration> overrun, Optional<String> error,
                      Optional<Duration> waited, Optional<Duration> margin, Optional<Duration> gap) {

    /** Database-clock time from start to finish; empty while running. */
    public Optional<Duration> duration() {
        return finishedAt.map(f -> Duration.between(startedAt, f));
    }
}
