package dev.mailrun.campaign.send;

import dev.mailrun.campaign.store.RelayShareTable.Holders;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This run's row in {@code relay_share}: how several workers keep one relay's rate in total. The
 * run takes its row before it sends, renews it every second (the flush thread does, mid-batch as
 * well) and releases it at the end; each renewal counts the live holders and updates the
 * {@link RelayRate}. A run that dies stops renewing, and its row expires after {@link #TTL}
 * (judged by the database clock), giving its share back to the others.
 */
final class RelayShare {

    private static final Logger log = LoggerFactory.getLogger(RelayShare.class);
    static final Duration TTL = Duration.ofSeconds(60);
    /** How often a sending run re-reads its relay share, also in the middle of a batch. */
    static final Duration RENEWAL = Duration.ofSeconds(1);

    private final RunScope run;
    private final String relay;
    private final RelayRate rate;
    private final Timing timing;
    private volatile long lastRenewal;

    RelayShare(RunScope run, RelayRate rate, Timing timing) {
        this(run, run.settings().relay(), rate, timing);
    }

    /** The share of the relay named {@code relay} (relays are shared by name across workers). */
    RelayShare(RunScope run, String relay, RelayRate rate, Timing timing) {
        this.run = run;
        this.relay = relay;
        this.rate = rate;
        this.timing = timing;
    }

    /** Takes this run's share before it sends. */
    void join() throws SQLException, InterruptedException {
        renew();
        if (rate.holders() > 1) {
            // Others already send through this relay at their old share; give them one renewal
            // period to see this run and slow down, so the relay's rate holds while it joins.
            timing.sleeper().sleepUntil(run.clock().instant().plus(RENEWAL).plusMillis(100));
            renew();
        }
    }

    /** Renews the share when a renewal period has passed since the last. */
    void renewIfDue() throws SQLException {
        if (timing.nanoTime().getAsLong() - lastRenewal >= RENEWAL.toNanos()) {
            renew();
        }
    }

    private synchronized void renew() throws SQLException {
        Tables tables = run.tables();
        Holders live = tables.inTransaction(c -> tables.shares().renew(c, relay, run.runToken(), TTL));
        lastRenewal = timing.nanoTime().getAsLong();
        rate.update(live);
        run.events().relayShare(relay, rate.current(), rate.relayRate());
    }

    /** Gives the share back at once (it would expire by itself). */
    void release() {
        try {
            run.tables().inTransaction(c -> {
                run.tables().shares().release(c, relay, run.runToken());
                return null;
            });
        } catch (SQLException e) {
            log.warn("Could not release the relay share of run {} (it expires by itself): {}", run.runToken(), e.getMessage());
        }
    }
}
