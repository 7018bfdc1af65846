package dev.mailrun.scheduler;

import java.time.Instant;

/**
 * The live run recorded on a task row. {@code startedAt}, {@code heartbeatAt} and {@code leaseUntil}
 * are database-clock times; {@code scheduledFor} is the slot the run serves.
 */
public record RunLease(String runToken, String owner, Instant scheduledFor, Instant startedAt, Instant heartbeatAt,
                       Instant leaseUntil) {}
