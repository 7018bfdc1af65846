package dev.mailrun.mail.smtp;

import java.time.Duration;
import java.util.Optional;

/**
 * The time a message needs left before it is started: its connection's usual time per message
 * with half again as margin. A message started with less would likely end after the deadline, and
 * a caller sizing work for a deadline keeps this much free after its last message.
 */
public final class StartBudget {

    /**
     * Less time than this left and a message is not started while its connection's time per message
     * is unknown: it would likely be cut off half-sent.
     */
    public static final Duration UNMEASURED = Duration.ofMillis(250);
    /**
     * The least time left a message is started with once its connection's time is measured: a relay
     * on the same network answers in a few milliseconds, and keeping 250 ms free before every
     * deadline would leave the relay idle that long at every run boundary.
     */
    public static final Duration MIN_MEASURED = Duration.ofMillis(25);
    /** A message is started only with this many times its connection's usual time left. */
    private static final double MARGIN = 1.5;

    private StartBudget() {
    }

    /** The budget for a connection whose usual time per message is {@code usual}, if known. */
    static Duration of(Optional<Duration> usual) {
        if (usual.isEmpty()) {
            return UNMEASURED;
        }
        Duration needs = Duration.ofNanos((long) (usual.get().toNanos() * MARGIN));
        return needs.compareTo(MIN_MEASURED) < 0 ? MIN_MEASURED : needs;
    }
}
