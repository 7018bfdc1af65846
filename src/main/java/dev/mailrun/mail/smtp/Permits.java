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

    /** The clock the waits are measured with, and the wait itself; injectable so tests need not wait. */
    interface Parker {
        Parker SYSTEM = new Parker() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void park(long nanos) {
                LockSupport.parkNanos(nanos);
            }
        };

        long nanoTime();

        void park(long nanos);
    }

    private final SendRateLimiter relay;
    private final PoolEvents events;
    private final Parker parker;
    private final Runnable heldByPace;
    private final AtomicInteger waitingOnPace = new AtomicInteger();

    /**
     * @param heldByPace told when a thread starts waiting for its message's own pace, so that the
     *                   pool can open a connection for the messages behind it ({@link #waitingOnPace})
     */
    Permits(SendRateLimiter relay, PoolEvents events, Runnable heldByPace) {
        this(relay, events, heldByPace, Parker.SYSTEM);
    }

    Permits(SendRateLimiter relay, PoolEvents events, Runnable heldByPace, Parker parker) {
        this.relay = relay;
        this.events = events;
        this.heldByPace = heldByPace;
        this.parker = parker;
    }

    /** How many sending threads wait for their message's own pace now. */
    int waitingOnPace() {
        return waitingOnPace.get();
    }

    /**
     * Books a rate permit, waits for it, then passes the send window; empty when no permit comes
     * while {@code remaining} still holds {@code needs}, or a stop was requested. An admission
     * means the message counts as sent from now, and from when it leaves if that is later
     * ({@link Admitted#leaving}).
     */
    Optional<Admitted> await(Optional<SendRateLimiter> pace, Supplier<Duration> remaining, BooleanSupplier stop,
                             Duration needs) {
        long start = parker.nanoTime();
        // The item's own pace first; a message its pace lets go then takes the relay's next free
        // place, ahead of the others (SendRateLimiter.admitAhead) rather than a booking behind
        // theirs: the pace's window moves on from when the message goes, so each wait behind the
        // others' bookings would cost the pace that much of its rate.
        boolean[] ahead = {false};
        Admitted admitted = new Admitted(relay, pace.orElse(null));
        boolean permitted;
        try {
            permitted = pace.isEmpty()
                    ? book(relay, remaining, stop, needs) && admit(admitted, remaining, stop, needs, ahead)
                    : awaitPace(pace.get(), remaining, stop, needs, ahead) && admit(admitted, remaining, stop, needs, ahead);
        } finally {
            keepAhead(relay, ahead, false);
        }
        if (!permitted) {
            return Optional.empty();
        }
        events.permitWaited(Duration.ofNanos(parker.nanoTime() - start));
        return Optional.of(admitted);
    }

    /** A message's places in the relay's send window and its pace's, until it leaves. */
    static final class Admitted {

        private final SendRateLimiter relay;
        private final SendRateLimiter pace;
        private SendRateLimiter.Admission atRelay = SendRateLimiter.Admission.UNCOUNTED;
        private SendRateLimiter.Admission atPace = SendRateLimiter.Admission.UNCOUNTED;

        private Admitted(SendRateLimiter relay, SendRateLimiter pace) {
            this.relay = relay;
            this.pace = pace;
        }

        /** Right before its command goes on the wire: the message counts from now in both windows. */
        void leaving() {
            relay.leaving(atRelay);
            if (pace != null) {
                pace.leaving(atPace);
            }
        }
    }

    /**
     * The pace's permit, and room in its window, without taking the room yet. From one relay spacing
     * before the room opens, the message keeps the relay's next free place from the others
     * ({@code ahead}): a place that frees meanwhile is there when the pace lets the message go.
     * Without it, the relay's places are taken as they free and the message waits for the next,
     * up to a spacing, every time — and since the pace's window moves on from when a message
     * goes, each such wait is lost to the pace for good (4% of a group's cap at 3/s beside a
     * 25/s relay share). Kept instead, the place waits for the message, a part of a spacing once
     * per paced message, which costs the relay's much larger rate a far smaller part of itself.
     */
    private boolean awaitPace(SendRateLimiter pace, Supplier<Duration> remaining, BooleanSupplier stop, Duration needs,
                              boolean[] ahead) {
        waitingOnPace.incrementAndGet();
        try {
            heldByPace.run();
            if (!book(pace, remaining, stop, needs)) {
                return false;
            }
            for (Duration again = pace.room(); !again.isZero(); again = pace.room()) {
                Duration lead = relay.spacing();
                boolean near = again.compareTo(lead) <= 0;
                keepAhead(relay, ahead, near);
                if (remaining.get().compareTo(needs) < 0 || !park(near ? again : again.minus(lead), stop)) {
                    return false;
                }
            }
            return true;
        } finally {
            waitingOnPace.decrementAndGet();
        }
    }

    /** Keeps ({@code keep}) or gives up this message's place of the relay's window ahead of the others. */
    private static void keepAhead(SendRateLimiter relay, boolean[] ahead, boolean keep) {
        if (ahead[0] != keep) {
            relay.waitAhead(keep);
            ahead[0] = keep;
        }
    }

    /** Books a permit of {@code limiter} and waits for it; false when none comes in the time left, or asked to stop. */
    private boolean book(SendRateLimiter limiter, Supplier<Duration> remaining, BooleanSupplier stop, Duration needs) {
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
    private boolean admit(Admitted admitted, Supplier<Duration> remaining, BooleanSupplier stop, Duration needs,
                          boolean[] ahead) {
        while (true) {
            Duration again = admitted.pace == null ? admitRelay(admitted) : admitBoth(admitted, ahead);
            if (again.isZero()) {
                return true;
            }
            if (remaining.get().compareTo(needs) < 0 || !park(again, stop)) {
                return false;
            }
        }
    }

    private static Duration admitRelay(Admitted admitted) {
        admitted.atRelay = admitted.relay.tryAdmit();
        return admitted.atRelay.again();
    }

    /** @param ahead whether this message keeps a place of the relay's window from the others; updated */
    private static Duration admitBoth(Admitted admitted, boolean[] ahead) {
        SendRateLimiter relay = admitted.relay;
        SendRateLimiter pace = admitted.pace;
        synchronized (pace) {
            Duration room = pace.room();
            if (!room.isZero()) {
                // Waiting for its pace again (another message of the domain took the room): no
                // place of the relay's is kept from the others until the room is near again.
                keepAhead(relay, ahead, room.compareTo(relay.spacing()) <= 0);
                return room;
            }
            admitted.atRelay = relay.tryAdmitAhead();
            if (admitted.atRelay.admitted()) {
                admitted.atPace = pace.tryAdmit();
            } else {
                keepAhead(relay, ahead, true);
            }
            return admitted.atRelay.again();
        }
    }

    /** Waits for {@code wait}; false when a stop was requested meanwhile. */
    private boolean park(Duration wait, BooleanSupplier stop) {
        long until = parker.nanoTime() + wait.toNanos();
        for (long left = wait.toNanos(); left > 0; left = until - parker.nanoTime()) {
            if (stop.getAsBoolean()) {
                return false;
            }
            parker.park(Math.min(left, STOP_CHECK_NANOS));
        }
        return !stop.getAsBoolean();
    }
}
