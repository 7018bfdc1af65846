package dev.mailrun.mail.smtp;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A sending thread's wait for its rate permits: the message's own pace (its domain's), then the
 * relay's, each booked only when it comes while the time left still holds the message.
 */
final class Permits {

    /** How often a thread waiting for a rate permit checks whether it was asked to stop. */
    private static final long STOP_CHECK_NANOS = Duration.ofMillis(50).toNanos();

    private final SendRateLimiter relay;
    private final PoolEvents events;

    Permits(SendRateLimiter relay, PoolEvents events) {
        this.relay = relay;
        this.events = events;
    }

    /**
     * Books a rate permit, waits for it, then passes the send window; false when no permit comes
     * while {@code remaining} still holds {@code needs}, or a stop was requested. Returning true
     * means the message counts as sent from now.
     */
    boolean await(Optional<SendRateLimiter> pace, Supplier<Duration> remaining, BooleanSupplier stop, Duration needs) {
        long start = System.nanoTime();
        // The item's own pace first: a message held back by its domain then takes the relay's next
        // permit, so the relay's count never sees it bunched up with the others.
        boolean permitted = (pace.isEmpty() || awaitOne(pace.get(), remaining, stop, needs))
                && awaitOne(relay, remaining, stop, needs);
        if (permitted) {
            events.permitWaited(Duration.ofNanos(System.nanoTime() - start));
        }
        return permitted;
    }

    private static boolean awaitOne(SendRateLimiter limiter, Supplier<Duration> remaining, BooleanSupplier stop,
                                    Duration needs) {
        Optional<Duration> wait = limiter.reserve(remaining.get().minus(needs));
        if (wait.isEmpty()) {
            return false;
        }
        if (!park(wait.get(), stop)) {
            return false;
        }
        for (Duration again = limiter.admit(); !again.isZero(); again = limiter.admit()) {
            if (remaining.get().compareTo(needs) < 0 || !park(again, stop)) {
                return false;
            }
        }
        return true;
    }

    /** Waits for {@code wait}; false when a stop was requested meanwhile. */
    private static boolean park(Duration wait, BooleanSupplier stop) {
        long until = System.nanoTime() + wait.toNanos();
        for (long left = wait.toNanos(); left > 0; left = until - System.nanoTime()) {
            if (stop.getAsBoolean()) {
                return false;
            }
            LockSupport.parkNanos(Math.min(left, STOP_CHECK_NANOS));
        }
        return !stop.getAsBoolean();
    }
}
