package dev.mailrun.http.api;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** A {@link TokenBucket} per API token name ({@code api.rate}, {@code api.burst}); the number of tokens is small and known. */
final class RateLimits {

    private final ApiSettings settings;
    private final Clock clock;
    private final ConcurrentMap<String, TokenBucket> buckets = new ConcurrentHashMap<>();

    RateLimits(ApiSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    /** {@link Duration#ZERO} when the caller may go on; otherwise how long it should wait. */
    Duration take(String caller) {
        return buckets.computeIfAbsent(caller, c -> new TokenBucket(settings.rate(), settings.burst(), clock)).take();
    }
}
