package dev.mailrun.app.config;

import dev.mailrun.scheduler.LeaseSettings;
import java.time.Duration;

/**
 * The {@code tick.*} keys, validated together, and this worker's host where its name cannot be resolved.
 *
 * @param lease how long a run holds its task without a heartbeat ({@code tick.lease}) and how often
 *              it beats ({@code tick.heartbeat})
 * @param fallbackHost this worker's host where the machine's name cannot be resolved: the {@code HOSTNAME}
 *                     variable, else {@code unknown-host} (see {@link dev.mailrun.scheduler.SchedulerConfig#thisProcess})
 */
public record TickConfig(Duration interval, Duration safetyMargin, Duration shutdownGrace, Duration runHistory,
                         Duration overlapWait, LeaseSettings lease, String fallbackHost) {

    /** With the default wait (5 s) for a previous run at the slot and the default lease. */
    public TickConfig(Duration interval, Duration safetyMargin, Duration shutdownGrace, Duration runHistory,
                      String fallbackHost) {
        this(interval, safetyMargin, shutdownGrace, runHistory, Duration.ofSeconds(5), LeaseSettings.DEFAULT, fallbackHost);
    }

    /** Any shorter and history of runs that just ended could go; the scheduler needs an hour plus its lease. */
    static final Duration MIN_RUN_HISTORY = Duration.ofHours(2);

    public TickConfig {
        if (safetyMargin.compareTo(interval) >= 0) {
            throw ConfigException.invalid("tick.safety-margin", "must be shorter than tick.interval (" + interval + ")");
        }
        if (!runHistory.isZero() && runHistory.compareTo(MIN_RUN_HISTORY) < 0) {
            throw ConfigException.invalid("tick.run-history", "must be 0s (keep forever) or at least 2h, got " + runHistory);
        }
        if (overlapWait.compareTo(lease.lease()) >= 0) {
            throw ConfigException.invalid("tick.overlap-wait", "must be shorter than tick.lease (" + lease.lease()
                    + "), got " + overlapWait);
        }
    }

    /**
     * The lease and heartbeat of {@code tick.lease} and {@code tick.heartbeat}; a heartbeat not well
     * inside the lease is an error naming {@code tick.heartbeat}.
     */
    static LeaseSettings lease(Duration lease, Duration heartbeat) {
        if (heartbeat.multipliedBy(3).compareTo(lease) >= 0) {
            throw ConfigException.invalid("tick.heartbeat", "must be below a third of tick.lease (" + lease
                    + ") so that two late heartbeats in a row still keep the lease, got " + heartbeat);
        }
        return new LeaseSettings(lease, heartbeat);
    }
}
