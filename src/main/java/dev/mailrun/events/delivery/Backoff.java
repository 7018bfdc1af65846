package dev.mailrun.events.delivery;

import java.time.Duration;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * When to try an endpoint again after {@code failures} failed attempts in a row: 5 s doubling per
 * failure up to 1 h, each delay drawn from 80–120% of that (jitter, so that receivers coming back
 * are not hit by every sender in the same second). A {@code Retry-After} the endpoint sent is
 * honoured when it asks for longer, up to a day.
 */
public final class Backoff {

    static final Duration FIRST = Duration.ofSeconds(5);
    static final Duration MAX = Duration.ofHours(1);
    static final Duration MAX_RETRY_AFTER = Duration.ofDays(1);

    private final RandomGenerator random;

    public Backoff(RandomGenerator random) {
        this.random = random;
    }

    public Duration next(int failures, Optional<Duration> retryAfter) {
        int doublings = Math.max(0, Math.min(failures - 1, 20));
        long base = Math.min(MAX.toMillis(), FIRST.toMillis() << doublings);
        long delay = (long) (base * (0.8 + 0.4 * random.nextDouble()));
        long asked = retryAfter.map(d -> Math.min(d.toMillis(), MAX_RETRY_AFTER.toMillis())).orElse(0L);
        return Duration.ofMillis(Math.max(delay, asked));
    }
}
