package dev.mailrun.campaign.send.pace;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.store.RelayShareTable.Holders;
import dev.mailrun.mail.smtp.SendRateLimiter;

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
    private Holders lastSeen = new Holders(1, 0);
    /** The relay's rate in total now: its configured rate, or lower while adapted to "too fast". */
    private volatile double relayTotal;

    private RelayRate(double relayRate, double campaignCap) {
        this.relayRate = relayRate;
        this.relayTotal = relayRate;
        this.campaignCap = campaignCap;
        this.current = shareOf(relayRate, new Holders(1, 0), campaignCap);
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

    /** This run's share among the relay's {@code live} holders, as one renewal found them. */
    synchronized void update(Holders live) {
        apply(live);
    }

    /** This run's share among the relay's {@code live} holders of the relay's rate {@code total} (adapted or configured). */
    synchronized void update(Holders live, double total) {
        relayTotal = total;
        apply(live);
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

    private void apply(Holders live) {
        lastSeen = live;
        holders = live.holders();
        current = shareOf(relayTotal, live, campaignCap);
        if (limiter.rate() != current) {
            limiter.setRate(current);
        }
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
    public static double shareOf(double relayRate, Holders h, double campaignCap) {
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
