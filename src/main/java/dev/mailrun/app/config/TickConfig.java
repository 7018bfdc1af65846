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

    /**
     * The least time a run must have before its deadline to send at all. Before its first batch a
     * run loads its campaign and template, opens its relays and joins their shares; the first run of
     * a 2 s interval (at most 1 s before its deadline) spent all of it there and ended at its deadline
     * having sent nothing, while runs of a 3 s interval with a 500 ms margin send. A worker's interval
     * must leave this much.
     */
    static final Duration MIN_RUN_WINDOW = Duration.ofSeconds(2);

    public TickConfig {
        Duration margin = min(safetyMargin, interval.dividedBy(2));
        if (interval.minus(margin).compareTo(MIN_RUN_WINDOW) < 0) {
            Duration least = min(safetyMargin.plus(MIN_RUN_WINDOW), MIN_RUN_WINDOW.multipliedBy(2));
            throw ConfigException.invalid("tick.interval", "must be at least " + Range.format(least)
                    + " with tick.safety-margin=" + Range.format(safetyMargin) + " (a run needs "
                    + Range.format(MIN_RUN_WINDOW) + " before its deadline: tick.interval minus tick.safety-margin, "
                    + "the margin at most half the interval), got " + Range.format(interval));
        }
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

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
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
