package dev.mailrun.campaign.send.pace;

import dev.mailrun.campaign.store.RelayShareTable.Holders;
import dev.mailrun.campaign.store.RelayShareTable.Live;
import dev.mailrun.mail.smtp.SendRateLimiter;
import java.time.Duration;
import java.util.Set;

/**
 * The one owner of a run's sending rate: the relay's configured rate ({@code smtp.rate}, for all
 * workers together), the campaign's own cap ({@code --rate}), and this run's current share of the
 * relay among its live holders. Each renewal of the relay share {@link #update}s it; the SMTP
 * pool's {@link #limiter()} is set from it, and the timebox reads {@link #current()} at every
 * prediction, so both follow a worker joining or leaving the relay mid-run. 0 means no limit.
 */
public final class RelayRate {

    private final double relayRate;
    private volatile double campaignCap;
    private final SendRateLimiter limiter = new SendRateLimiter(0);
    private volatile double current;
    private volatile int holders = 1;
    private Live lastSeen = ALONE;
    /** The holders as a renewal found them when they gave this run a larger share, not applied yet; null: none. */
    private Live rising;
    /** When (nanoTime) {@link #rising} was found. */
    private long risingSince;
    /** What this run can still use of the relay, when less than its share (only capped domains left); 0: its share. */
    private double wants;
    /** The relay's rate in total now: its configured rate, or lower while adapted to "too fast". */
    private volatile double relayTotal;

    /**
     * How long a larger share waits after the renewal that found it: the send windows' span (a second
     * and their headroom), which the holder that gave it up may have filled up to its end.
     */
    static final Duration RISE_AFTER = SendRateLimiter.SPAN;

    /** A holder alone on the relay. */
    static final Live ALONE = new Live(new Holders(1, 0), Set.of(), Set.of());

    private RelayRate(double relayRate, double campaignCap) {
        this.relayRate = relayRate;
        this.relayTotal = relayRate;
        this.campaignCap = campaignCap;
        this.current = shareOf(relayRate, ALONE, 0, campaignCap);
    }

    /**
     * The rate of one relay of a run's route: {@code relayRate} is the relay's own rate ({@code smtp.<name>.rate}),
     * {@code campaignCap} the part of the campaign's {@code --rate} that falls to this relay (0: none).
     */
    static RelayRate forRelay(double relayRate, double campaignCap) {
        return new RelayRate(relayRate, campaignCap);
    }

    /** The relay's configured rate for all workers together; 0 = no limit. */
    double relayRate() {
        return relayRate;
    }

    /**
     * The part of the campaign's own rate this relay carries now (its share of the route's traffic
     * changes when another relay of the route goes down or comes back); 0 = no cap.
     */
    synchronized void capAt(double cap) {
        if (cap != campaignCap) {
            campaignCap = cap;
            apply(lastSeen);
        }
    }

    /** The rate this run may send at now; 0 = no limit. */
    double current() {
        return current;
    }

    /** The relay's live holders at the last renewal, this run included. */
    int holders() {
        return holders;
    }

    /** The limiter the SMTP pool sends through, kept at {@link #current()}. */
    public SendRateLimiter limiter() {
        return limiter;
    }

    /**
     * This run's share among the relay's {@code live} holders of the relay's rate {@code total}
     * (adapted or configured).
     *
     * <p>A larger share — a holder left, or wants less than its share — applies from the first
     * renewal at least {@link #RISE_AFTER} after the one that found it: the holder that left (or
     * lowered its pace) may have sent its old share within the last second, and taking it over at
     * once would let one second hold both. Counted in time, not renewals: a run renews more often
     * than once a second at times ({@link RelayShare}).
     *
     * @param nanos when the renewal read {@code live} (nanoTime)
     * @return the ages (nanoseconds) of this run's sends of the last second that a lowered share no
     *         longer holds ({@link SendRateLimiter#handOverTo} when a holder joined): a run joining
     *         the relay counts them
     */
    synchronized long[] update(Live live, double total, long nanos) {
        relayTotal = total;
        double share = shareOf(total, live, wants, campaignCap);
        if (current > 0 && share > current) {
            if (!live.equals(rising)) {
                rising = live;
                risingSince = nanos;
                return new long[0];
            }
            if (nanos - risingSince < RISE_AFTER.toNanos()) {
                return new long[0];
            }
        }
        rising = null;
        return apply(live, live.holders().holders() > lastSeen.holders().holders());
    }

    /**
     * This run can use only {@code wants} messages per second of the relay from now on (its list
     * holds only capped domains): its share is at most that, and the other holders, told through
     * the relay's rows, share the rest. Never raised again in this run.
     */
    synchronized void want(double wants) {
        this.wants = this.wants > 0 ? Math.min(this.wants, wants) : wants;
        apply(lastSeen);
    }

    /** The relay's rate in total was lowered (or raised) here: applies at once, with the holders of the last renewal. */
    synchronized void adapt(double total) {
        relayTotal = total;
        apply(lastSeen);
    }

    /** The relay's rate in total as adapted now; equal to {@link #relayRate()} unless lowered. */
    double relayTotal() {
        return relayTotal;
    }

    private long[] apply(Live live) {
        return apply(live, false);
    }

    /** @param joined another holder joined: the sends this share no longer holds are handed over to it, spread */
    private long[] apply(Live live, boolean joined) {
        lastSeen = live;
        holders = live.holders().holders();
        current = shareOf(relayTotal, live, wants, campaignCap);
        if (limiter.rate() == current) {
            return new long[0];
        }
        return joined ? limiter.handOverTo(current) : limiter.changeRate(current);
    }

    /**
     * The rate one holder may use among {@code live} holders when some of them want less than their
     * share: each of those takes ⌈what it wants⌉ whole messages per second, and the others (this one
     * too, unless it is one of them) deal out the rest as {@link #shareOf(double, Holders, double)}
     * does. Every holder finds the same ones wanting less (below the even whole share), so the
     * windows still add up to ⌈relay rate⌉.
     *
     * @param wants what this holder can use, 0: its share
     */
    static double shareOf(double relayRate, Live live, double wants, double campaignCap) {
        int n = live.holders().holders();
        if (relayRate < n || (wants <= 0 && live.wants().isEmpty())) {
            double share = shareOf(relayRate, live.holders(), campaignCap);
            return wants > 0 && share > 0 ? Math.min(share, Math.ceil(wants)) : share;
        }
        long even = (long) Math.floor(relayRate) / n;
        long taken = 0;
        int fewer = 0;
        int fewerBelow = 0;
        for (var other : live.wants().entrySet()) {
            long w = (long) Math.ceil(other.getValue());
            if (w < even) {
                taken += w;
                fewer++;
                fewerBelow += live.below().contains(other.getKey()) ? 1 : 0;
            }
        }
        if (wants > 0 && (long) Math.ceil(wants) < even) {
            double own = Math.ceil(wants);
            return campaignCap > 0 ? Math.min(own, campaignCap) : own;
        }
        double share = shareOf(relayRate - taken, new Holders(n - fewer, live.holders().rank() - fewerBelow), campaignCap);
        return wants > 0 ? Math.min(share, Math.ceil(wants)) : share;
    }

    /**
     * The rate one holder may use: its share of the relay's rate, capped by the campaign's own rate.
     * 0 = unlimited.
     *
     * <p>Each holder's send window admits ⌈share⌉ messages per second, so equal fractional shares
     * let the holders together exceed the relay's rate in one second by up to one message each
     * (50/s over four holders: 12.5 each, windows of 13, 52 in one second). When every holder gets
     * at least one message per second, the whole messages are dealt out by rank instead (13, 13,
     * 12, 12) and the fraction of the relay's rate, if any, goes to rank 0: the windows then add up
     * to ⌈relay rate⌉. Below one per holder the shares stay equal fractions.
     */
    static double shareOf(double relayRate, Holders h, double campaignCap) {
        double share;
        if (relayRate <= 0) {
            share = 0;
        } else if (relayRate < h.holders()) {
            share = relayRate / h.holders();
        } else {
            long whole = (long) Math.floor(relayRate);
            long base = whole / h.holders();
            long extra = whole % h.holders();
            share = base + (h.rank() < extra ? 1 : 0) + (h.rank() == 0 ? relayRate - whole : 0);
        }
        if (campaignCap > 0) {
            return share <= 0 ? campaignCap : Math.min(share, campaignCap);
        }
        return share;
    }
}
