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
        // The item's own pace first; a message its pace lets go then takes the relay's next free
        // place, ahead of the others (SendRateLimiter.admitAhead) rather than a booking behind
        // theirs: the pace's window moves on from when the message goes, so each wait behind the
        // others' bookings would cost the pace that much of its rate.
        boolean permitted = pace.isEmpty()
                ? book(relay, remaining, stop, needs) && admit(relay, Optional.empty(), remaining, stop, needs)
                : awaitPace(pace.get(), remaining, stop, needs) && admit(relay, pace, remaining, stop, needs);
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
        boolean[] ahead = {false};
        try {
            while (true) {
                Duration again = pace.isEmpty() ? relay.admit() : admitBoth(relay, pace.get(), ahead);
                if (again.isZero()) {
                    return true;
                }
                if (remaining.get().compareTo(needs) < 0 || !park(again, stop)) {
                    return false;
                }
            }
        } finally {
            if (ahead[0]) {
                relay.waitAhead(false);
            }
        }
    }

    /** @param ahead whether this message keeps a place of the relay's window from the others; updated */
    private static Duration admitBoth(SendRateLimiter relay, SendRateLimiter pace, boolean[] ahead) {
        synchronized (pace) {
            Duration room = pace.room();
            if (!room.isZero()) {
                // Waiting for its pace again (another message of the domain took the room): no
                // place of the relay's is kept from the others meanwhile.
                if (ahead[0]) {
                    relay.waitAhead(false);
                    ahead[0] = false;
                }
                return room;
            }
            Duration again = relay.admitAhead();
            if (again.isZero()) {
                pace.admit();
            } else if (!ahead[0]) {
                relay.waitAhead(true);
                ahead[0] = true;
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
