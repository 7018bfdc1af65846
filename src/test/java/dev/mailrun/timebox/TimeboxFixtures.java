package dev.mailrun.timebox;

import java.time.Duration;
import java.time.Instant;

/** Shared starting points for timebox tests. */
final class TimeboxFixtures {

    static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    static final Duration OVERHEAD = Duration.ofMillis(10);

    /** Calibrate with 5, grow by half up to 20, 10 ms overhead, no rate limit, 5 ms timeout floor. */
    static final TimeboxConfig CONFIG =
            new TimeboxConfig(5, 1, 20, 0, 1.5, OVERHEAD, Duration.ofMillis(5));

    static final java.util.function.BooleanSupplier NEVER_STOP = () -> false;

    private TimeboxFixtures() {
    }

    static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }

    static Instant at(long millis) {
        return T0.plusMillis(millis);
    }
}
