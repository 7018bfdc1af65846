package dev.mailrun.app.config;

import java.time.Duration;

public record TickConfig(Duration interval, Duration safetyMargin, Duration shutdownGrace, Duration runHistory,
                         Duration overlapWait) {

    /** With the default wait (5 s) for a previous run at the slot. */
    public TickConfig(Duration interval, Duration safetyMargin, Duration shutdownGrace, Duration runHistory) {
        this(interval, safetyMargin, shutdownGrace, runHistory, Duration.ofSeconds(5));
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
    }
}
