package dev.mailrun.campaign.send.record;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * When a transiently failed recipient is tried again: exponential backoff from a base delay with
 * ±20% jitter (so a relay's hiccup does not bring every retry back in the same second), never
 * sooner than a "try again in N seconds" hint from the server, and never after the last attempt.
 */
public final class RetryPolicy {

    private static final Duration MAX_DELAY = Duration.ofHours(24);

    private final int maxAttempts;
    private final Duration base;
    private final RandomGenerator random;

    public RetryPolicy(int maxAttempts, Duration base, RandomGenerator random) {
        this.maxAttempts = maxAttempts;
        this.base = base;
        this.random = random;
    }

    /**
     * @param attemptsBefore attempts made before the one that just failed
     * @return when to try again, or empty when the attempts are used up
     */
    Optional<Instant> nextAttempt(int attemptsBefore, Instant now, Optional<Duration> serverHint) {
        int attemptsMade = attemptsBefore + 1;
        if (attemptsMade >= maxAttempts) {
            return Optional.empty();
        }
        long factor = 1L << Math.min(attemptsMade - 1, 20);
        double jitter = 0.8 + 0.4 * random.nextDouble();
        long millis = (long) Math.min(MAX_DELAY.toMillis(), base.toMillis() * (double) factor * jitter);
        Duration delay = Duration.ofMillis(millis);
        if (serverHint.isPresent() && serverHint.get().compareTo(delay) > 0) {
            delay = serverHint.get().compareTo(MAX_DELAY) > 0 ? MAX_DELAY : serverHint.get();
        }
        return Optional.of(now.plus(delay));
    }
}
