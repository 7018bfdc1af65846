package dev.mailrun.http.api;

import java.time.Clock;
import java.time.Duration;

/**
 * One token's request budget: {@code burst} requests at once, refilled at {@code rate} per second,
 * on an injected clock. A refusal says how long until the next request would be allowed.
 */
final class TokenBucket {

    private final double rate;
    private final double burst;
    private final Clock clock;
    private double available;   // guarded by this
    private long lastNanos;     // guarded by this; the clock's millis, in nanos

    TokenBucket(double rate, int burst, Clock clock) {
        this.rate = rate;
        this.burst = burst;
        this.clock = clock;
        this.available = burst;
        this.lastNanos = nanos();
    }

    /** Takes one request's permit; empty when allowed, otherwise the wait until one is there. */
    synchronized Duration take() {
        long now = nanos();
        available = Math.min(burst, available + Math.max(0, now - lastNanos) / 1e9 * rate);
        lastNanos = now;
        if (available >= 1) {
            available -= 1;
            return Duration.ZERO;
        }
        return Duration.ofNanos((long) Math.ceil((1 - available) / rate * 1e9));
    }

    private long nanos() {
        return clock.millis() * 1_000_000L;
    }
}
