package dev.mailrun.campaign.audience.signup;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How many sign-ups one key (a client address, or an email address) may make per window, counted in
 * memory only: nothing about a person is stored for it, and a restart forgets it. A sliding window of
 * the last {@code max} attempts per key; at most {@value #MAX_KEYS} keys are kept, the least recently
 * used dropped first, so a flood of distinct keys cannot grow memory without bound.
 */
public final class SignupLimits {

    static final int MAX_KEYS = 100_000;

    private final int max;
    private final Duration window;
    private final Clock clock;
    private final Map<String, Deque<Instant>> attempts = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Deque<Instant>> eldest) {
            return size() > MAX_KEYS;
        }
    };

    /** @param max attempts a key may make within {@code window}; 0: none limited */
    public SignupLimits(int max, Duration window, Clock clock) {
        if (max < 0 || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("a limit needs a count of 0 or more and a positive window");
        }
        this.max = max;
        this.window = window;
        this.clock = clock;
    }

    /**
     * Counts an attempt of {@code key} when it is allowed; when it is not, how long until it would be
     * (nothing counted then).
     */
    public synchronized Optional<Duration> acquire(String key) {
        if (max == 0) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        Deque<Instant> times = attempts.computeIfAbsent(key, k -> new ArrayDeque<>(max));
        for (Iterator<Instant> it = times.iterator(); it.hasNext(); ) {
            if (!it.next().plus(window).isAfter(now)) {
                it.remove();
            } else {
                break;
            }
        }
        if (times.size() >= max) {
            Duration wait = Duration.between(now, times.peekFirst().plus(window));
            return Optional.of(wait.isNegative() || wait.isZero() ? Duration.ofSeconds(1) : wait);
        }
        times.addLast(now);
        return Optional.empty();
    }
}
