package dev.mailrun.campaign.model;

import java.time.Duration;
import java.time.Instant;

/**
 * How a rate answers "too fast": multiplicative decrease, additive increase (AIMD, as TCP does).
 * A too-fast reply halves the rate — at most once per {@link #guard}, since the replies to
 * messages already in flight, from every worker, tell of the same excess — and after a quiet
 * {@link #coolDown} it climbs back by a fixed step every {@link #stepEvery} until it reaches the
 * configured rate again. The state lives in the database ({@code adapted_rate}), so every worker
 * sees the same adapted rate at its next relay-share renewal and it survives restarts.
 *
 * @param coolDown     no step up sooner than this after the last halving
 * @param step         the step up, as a fraction of the configured rate
 * @param stepEvery    at most one step up per this period
 * @param guard        halvings closer together than this count once
 */
public record AdaptiveRate(Duration coolDown, double step, Duration stepEvery, Duration guard) {

    /**
     * The relay: back within 10 s, 2% of smtp.rate per second. Slow enough that a relay whose
     * limit lies far below smtp.rate is hit again only every half a minute or so.
     */
    public static final AdaptiveRate RELAY = new AdaptiveRate(Duration.ofSeconds(10), 0.02, Duration.ofSeconds(1),
            Duration.ofSeconds(1));

    /**
     * A domain group: mailbox providers remember a sender for longer, so the cool-down is a minute
     * and the rate climbs back a tenth of its cap every 10 s.
     */
    public static final AdaptiveRate DOMAIN = new AdaptiveRate(Duration.ofMinutes(1), 0.10, Duration.ofSeconds(10),
            Duration.ofSeconds(1));

    /** The lowest an adapted rate goes: 1% of the configured rate, and never below 0.01/s. */
    public static double floor(double configured) {
        return Math.max(0.01, configured * 0.01);
    }

    public double halved(double current, double configured) {
        return Math.max(floor(configured), current / 2);
    }

    public double steppedUp(double current, double configured) {
        return Math.min(configured, current + Math.max(0.01, configured * step));
    }

    /** Whether a rate last halved at {@code decreasedAt} and last raised at {@code increasedAt} may step up at {@code now}. */
    public boolean mayStepUp(Instant decreasedAt, Instant increasedAt, Instant now) {
        return !now.isBefore(decreasedAt.plus(coolDown)) && !now.isBefore(increasedAt.plus(stepEvery));
    }
}
