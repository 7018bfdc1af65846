package dev.mailrun.mail.smtp;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * How many connections one pool uses: the one owner of that count.
 *
 * <ol>
 *   <li>Every message's time on its connection (MAIL FROM to the reply after the body, the round
 *       trips included) goes into a moving average.</li>
 *   <li>The count the rate needs is {@code rate × time per message}, with a quarter more and one
 *       spare connection, so that a message slower than the average does not hold the rate back.</li>
 *   <li>It is bounded by {@code smtp.max-connections} and by the relay's own limit: a relay that
 *       turned a connection away as one too many lowers the ceiling to the connections it was
 *       serving. That ceiling is shared by every worker sending through the relay (the campaign
 *       layer keeps it in the database and gives each run its part, {@link #limit}).</li>
 *   <li>Before anything is measured, and without a rate limit (the relay's own speed then sets the
 *       rate), the pool keeps {@code smtp.connections}.</li>
 * </ol>
 * Thread-safe: the sending threads report times, the batch's caller reads the count.
 */
final class ConnectionSizer {

    /** Weight of the newest message in the moving average: about the last 20 messages count. */
    private static final double ALPHA = 0.1;
    /** Weight of the newest message's distance from the average in the mean deviation (RFC 6298's). */
    private static final double DEVIATION_GAIN = 0.25;
    private static final double HEADROOM = 1.25;

    private final int start;
    private final int max;
    private double averageNanos = -1;
    private double deviationNanos = -1;
    private int relayLimit = Integer.MAX_VALUE;
    private int sharedLimit = Integer.MAX_VALUE;

    ConnectionSizer(int start, int max) {
        if (start < 1 || max < start) {
            throw new IllegalArgumentException("connections must be 1 <= start <= max, got " + start + ".." + max);
        }
        this.start = start;
        this.max = max;
    }

    /** One message took {@code nanos} on its connection. */
    synchronized void observe(long nanos) {
        if (nanos < 0) {
            return;
        }
        if (averageNanos < 0) {
            averageNanos = nanos;
            // Until messages vary, as wide as the fixed half-again margin a start budget had before it knew the spread.
            deviationNanos = nanos / 8.0;
            return;
        }
        deviationNanos += DEVIATION_GAIN * (Math.abs(nanos - averageNanos) - deviationNanos);
        averageNanos += ALPHA * (nanos - averageNanos);
    }

    /** How far a message's time strays from the average, on average; once a message was sent. */
    synchronized Optional<java.time.Duration> deviation() {
        return deviationNanos < 0 ? Optional.empty() : Optional.of(java.time.Duration.ofNanos((long) deviationNanos));
    }

    /** The measured time per message, once a message was sent. */
    synchronized OptionalLong perMessageNanos() {
        return averageNanos < 0 ? OptionalLong.empty() : OptionalLong.of((long) averageNanos);
    }

    /** The measured time per message as a duration, once a message was sent. */
    Optional<java.time.Duration> perMessage() {
        OptionalLong nanos = perMessageNanos();
        return nanos.isPresent() ? Optional.of(java.time.Duration.ofNanos(nanos.getAsLong())) : Optional.empty();
    }

    /** The count to use at {@code rate} messages per second (0: no limit). */
    synchronized int target(double rate) {
        return target(rate, 0);
    }

    /**
     * The count to use at {@code rate} messages per second (0: no limit) while {@code heldByPace}
     * connections wait for their message's own pace (a capped domain's): those carry none of the
     * relay's rate meanwhile, so the count the rate needs comes on top of them. Without them a
     * domain's backlog, every connection waiting on its cap, holds back the rest of the list.
     */
    synchronized int target(double rate, int heldByPace) {
        int ceiling = ceiling();
        if (averageNanos < 0 || rate <= 0) {
            return Math.min(start, ceiling);
        }
        double needed = rate * averageNanos / 1e9 * HEADROOM;
        long count = (long) Math.ceil(needed) + 1 + Math.max(0, heldByPace);
        return (int) Math.max(1, Math.min(ceiling, count));
    }

    /** The most connections this pool may open now. */
    synchronized int ceiling() {
        return Math.max(1, Math.min(max, Math.min(relayLimit, sharedLimit)));
    }

    /** The count needed to reach {@code rate}, without any ceiling; empty before a message was measured. */
    synchronized OptionalLong unbounded(double rate) {
        if (averageNanos < 0 || rate <= 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of((long) Math.ceil(rate * averageNanos / 1e9 * HEADROOM) + 1);
    }

    /**
     * The relay turned a connection away while {@code open} others were serving: this pool stays at
     * {@code open} (at least one) until the shared ceiling says otherwise.
     */
    synchronized void relayRefused(int open) {
        relayLimit = Math.max(1, Math.min(relayLimit, open));
    }

    /** This pool's part of the relay's shared ceiling; {@link Integer#MAX_VALUE}: none known. */
    synchronized void limit(int connections) {
        sharedLimit = Math.max(1, connections);
        // Once the shared ceiling is as low as what this pool learned, it includes it and decides
        // alone (and may rise again when it expires); until then the local refusal stands.
        if (sharedLimit <= relayLimit) {
            relayLimit = Integer.MAX_VALUE;
        }
    }

    int start() {
        return start;
    }

    int max() {
        return max;
    }
}
