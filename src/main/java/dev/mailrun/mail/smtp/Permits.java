package dev.mailrun.mail.smtp;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
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
    private final Runnable heldByPace;
    private final AtomicInteger waitingOnPace = new AtomicInteger();

    /**
     * @param heldByPace told when a thread starts waiting for its message's own pace, so that the
     *                   pool can open a connection for the messages behind it ({@link #waitingOnPace})
     */
    Permits(SendRateLimiter relay, PoolEvents events, Runnable heldByPace) {
        this.relay = relay;
        this.events = events;
        this.heldByPace = heldByPace;
    }

    /** How many sending threads wait for their message's own pace now. */
    int waitingOnPace() {
        return waitingOnPace.get();
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
        boolean permitted = pace.isEmpty()
                ? book(relay, remaining, stop, needs) && admit(relay, Optional.empty(), remaining, stop, needs)
                : awaitPace(pace.get(), remaining, stop, needs) && book(relay, remaining, stop, needs)
                        && admit(relay, pace, remaining, stop, needs);
        if (permitted) {
            events.permitWaited(Duration.ofNanos(System.nanoTime() - start));
        }
        return permitted;
    }

    /** The pace's permit, and room in its window, without taking the room yet. */
    private boolean awaitPace(SendRateLimiter pace, Supplier<Duration> remaining, BooleanSupplier stop, Duration needs) {
        waitingOnPace.incrementAndGet();
        try {
            heldByPace.run();
            if (!book(pace, remaining, stop, needs)) {
                return false;
            }
            for (Duration again = pace.room(); !again.isZero(); again = pace.room()) {
                if (remaining.get().compareTo(needs) < 0 || !park(again, stop)) {
                    return false;
                }
            }
            return true;
        } finally {
            waitingOnPace.decrementAndGet();
        }
    }

    /** Books a permit of {@code limiter} and waits for it; false when none comes in the time left, or asked to stop. */
    private static boolean book(SendRateLimiter limiter, Supplier<Duration> remaining, BooleanSupplier stop, Duration needs) {
        Optional<Duration> wait = limiter.reserve(remaining.get().minus(needs));
        return wait.isPresent() && park(wait.get(), stop);
    }

    /**
     * Passes the relay's send window and the pace's, if any, at one moment: the message counts in
     * both from the instant it goes. The pace's lock is held meanwhile, so no other message of the
     * domain takes its room between the two; counted in the domain's window before a wait for the
     * relay's, messages would reach the relay bunched up, over the domain's cap in one second, and
     * counted in the relay's before a wait for the domain's, over the relay's.
     */
    private static boolean admit(SendRateLimiter relay, Optional<SendRateLimiter> pace, Supplier<Duration> remaining,
                                 BooleanSupplier stop, Duration needs) {
        while (true) {
            Duration again = pace.isEmpty() ? relay.admit() : admitBoth(relay, pace.get());
            if (again.isZero()) {
                return true;
            }
            if (remaining.get().compareTo(needs) < 0 || !park(again, stop)) {
                return false;
            }
        }
    }

    private static Duration admitBoth(SendRateLimiter relay, SendRateLimiter pace) {
        synchronized (pace) {
            Duration room = pace.room();
            if (!room.isZero()) {
                return room;
            }
            Duration again = relay.admit();
            if (again.isZero()) {
                pace.admit();
            }
            return again;
        }
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
