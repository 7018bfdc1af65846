package dev.mailrun.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** A row of the task table as an operator sees it. */
public record Task(long id, String name, String description, String handler, Duration interval,
                   MisfirePolicy misfirePolicy, Duration misfireThreshold, Metadata metadata,
                   Optional<ErrorLog> lastError, int consecutiveFailures, Optional<Instant> lastStartedAt,
                   Optional<Instant> lastFinishedAt, Instant nextRunAt, boolean enabled, Optional<RunLease> liveRun) {

    public Task {
        metadata = metadata.copy();
    }

    @Override
    public Metadata metadata() {
        return metadata.copy();
    }
}
