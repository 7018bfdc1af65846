package dev.mailrun.campaign.send.scope;

import java.time.Duration;

/** How often a run writes its results: after {@code every} messages or {@code interval}, whichever comes first. */
public record FlushCadence(int every, Duration interval) {

    /** 100 messages or 250 ms. */
    public static final FlushCadence DEFAULT = new FlushCadence(100, Duration.ofMillis(250));

    public FlushCadence {
        if (every < 1) {
            throw new IllegalArgumentException("flushEvery must be at least 1, got " + every);
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("flush interval must be positive, got " + interval);
        }
    }
}
