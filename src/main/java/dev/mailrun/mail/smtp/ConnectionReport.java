package dev.mailrun.mail.smtp;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * How one pool is sized at a moment, and whether its connections, rather than the rate, limit
 * sending.
 *
 * @param open        connections open now
 * @param target      connections the pool uses for the next batch
 * @param ceiling     the most it may open: {@code smtp.max-connections}, or lower when the relay
 *                    turned connections away
 * @param needed      connections the rate needs at the measured time per message, ignoring the ceiling
 * @param perMessage  measured time per message on a connection; empty before the first message
 * @param rate        the rate the pool sends at (its limiter's), messages per second; 0: no limit
 */
public record ConnectionReport(int open, int target, int ceiling, Optional<Integer> needed,
                               Optional<Duration> perMessage, double rate) {

    /** Messages per second {@code connections} reach at the measured time per message; empty before one was measured. */
    public Optional<Double> reach(int connections) {
        return perMessage.filter(d -> !d.isZero()).map(d -> connections * 1e9 / d.toNanos());
    }

    /**
     * True when the connections in use cannot reach the rate: fewer than it needs because of the
     * ceiling, or because the pool is still growing.
     */
    public boolean limitsRate() {
        // A pool with nothing open is between batches or runs: what holds it back is not known.
        return rate > 0 && open > 0 && reach(open).map(r -> r < rate * 0.98).orElse(false)
                && needed.map(n -> n > open).orElse(false);
    }

    /** "4 at 450 ms per message reach 9/s of 50/s; growing to 24" (or "capped at 8 by the relay"). */
    public String describe() {
        String reached = String.format(Locale.ROOT, "%d at %d ms per message reach %s/s of %s/s", open,
                perMessage.map(Duration::toMillis).orElse(0L), rounded(reach(open).orElse(0.0)), rounded(rate));
        if (target > open) {
            return reached + "; growing to " + target;
        }
        if (needed.map(n -> n > ceiling).orElse(false)) {
            return reached + "; " + ceiling + " is the ceiling";
        }
        return reached;
    }

    private static String rounded(double value) {
        return value >= 10 || value == Math.rint(value)
                ? Long.toString(Math.round(value)) : String.format(Locale.ROOT, "%.1f", value);
    }
}
