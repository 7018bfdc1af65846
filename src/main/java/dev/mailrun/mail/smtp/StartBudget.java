package dev.mailrun.mail.smtp;

import java.time.Duration;
import java.util.Optional;

/**
 * The time a message needs left before it is started: its connection's usual time per message, with
 * four mean deviations of the relay's times as margin (the bound RFC 6298 keeps for a round trip), and
 * never less than an eighth more. A message started with less would likely end after the deadline, and
 * a caller sizing work for a deadline keeps this much free after its last message. Against a relay
 * whose times hardly vary the margin is that eighth: a margin fixed at half the usual time would keep
 * that half idle at every run boundary, a sixth of a second against a relay 80 ms away.
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
    /** Deviations of margin: a message slower than this is rare enough to be cut off at a deadline. */
    private static final int DEVIATIONS = 4;
    /** The least margin, as a share of the usual time: a spread measured as none is not trusted to stay so. */
    private static final double LEAST_MARGIN = 1.0 / 8;

    private StartBudget() {
    }

    /**
     * The budget for a connection whose usual time per message is {@code usual}, if known, against a
     * relay whose times stray from theirs by {@code deviation} on average (unknown: the least margin).
     */
    static Duration of(Optional<Duration> usual, Optional<Duration> deviation) {
        if (usual.isEmpty()) {
            return UNMEASURED;
        }
        long mean = usual.get().toNanos();
        long margin = Math.max(DEVIATIONS * deviation.map(Duration::toNanos).orElse(0L), (long) (mean * LEAST_MARGIN));
        Duration needs = Duration.ofNanos(mean + margin);
        return needs.compareTo(MIN_MEASURED) < 0 ? MIN_MEASURED : needs;
    }
}
