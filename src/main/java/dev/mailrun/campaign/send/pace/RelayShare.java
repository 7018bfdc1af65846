package dev.mailrun.campaign.send.pace;

import dev.mailrun.campaign.send.scope.RunScope;
import dev.mailrun.campaign.send.scope.Tables;
import dev.mailrun.campaign.send.scope.Timing;
import dev.mailrun.campaign.store.PaceTailTable;
import dev.mailrun.campaign.store.RelayShareTable.Holders;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This run's rows in {@code relay_share}: how several workers keep one relay's rate — and, for the
 * route's first relay, each domain group's — in total. The run takes its rows before it sends,
 * renews them every second (the flush thread does, mid-batch as well) and releases them at the end;
 * each renewal counts the live holders and updates the {@link RelayRate}; the one holding the domain
 * groups also brings the adapted rates up to date ({@link RateAdapter#sync}) and updates the
 * {@link DomainPacer}, in the same transaction. A run that dies stops renewing, and its rows expire
 * after {@link #TTL} (judged by the database clock), giving its shares back to the others.
 */
public final class RelayShare {

    private static final Logger log = LoggerFactory.getLogger(RelayShare.class);
    static final Duration TTL = Duration.ofSeconds(60);
    /** How often a sending run re-reads its relay share, also in the middle of a batch. */
    public static final Duration RENEWAL = Duration.ofSeconds(1);

    private final RunScope run;
    private final String relay;
    private final RelayRate rate;
    private final Timing timing;
    private final Pacing pacing;
    private final boolean withGroups;
    private final List<String> names;
    private final RelayConnections connections;
    private final PaceTailTable tails = new PaceTailTable();
    /** Until the first renewal: what earlier runs sent at these paces in their last second was not read yet. */
    private volatile boolean tailsRead;
    private volatile long lastRenewal;
    private volatile int mostHolders = 1;

    /**
     * The share of the relay named {@code relay} (relays are shared by name across workers).
     *
     * @param withGroups this share also holds the domain groups' rows and syncs the adapted rates
     *                   (one relay of the route does, for the whole run)
     */
    public RelayShare(RunScope run, String relay, RelayRate rate, Timing timing, Pacing pacing, boolean withGroups,
                      RelayConnections connections) {
        this.run = run;
        this.connections = connections;
        this.relay = relay;
        this.rate = rate;
        this.timing = timing;
        this.pacing = pacing;
        this.withGroups = withGroups;
        List<String> all = new ArrayList<>();
        all.add(relay);
        if (withGroups) {
            all.addAll(pacing.domains().shareNames());
        }
        this.names = List.copyOf(all);
    }

    /** Takes this run's share before it sends. */
    public void join() throws SQLException, InterruptedException {
        renew();
        if (mostHolders > 1) {
            // Others already send through this relay at their old share; give them one renewal
            // period to see this run and slow down, so the relay's rate holds while it joins. A
            // paced domain group is held in any second: wait one more, until what they sent at
            // their old share has left the last second. (Going as soon as they had counted this
            // run let their last second at the old share and this run's first add up: 63 in one
            // second at 50/s with two workers.)
            Duration wait = withGroups && pacing.domains().active() ? RENEWAL.multipliedBy(2) : RENEWAL;
            timing.sleeper().sleepUntil(run.clock().instant().plus(wait).plusMillis(100));
            renew();
        }
    }

    /** Renews the share when a renewal period has passed since the last. */
    public void renewIfDue() throws SQLException {
        if (timing.nanoTime().getAsLong() - lastRenewal >= RENEWAL.toNanos()) {
            renew();
        }
    }

    private synchronized void renew() throws SQLException {
        Tables tables = run.tables();
        java.util.concurrent.atomic.AtomicReference<java.util.Optional<Integer>> connectionPart =
                new java.util.concurrent.atomic.AtomicReference<>(java.util.Optional.empty());
        java.util.concurrent.atomic.AtomicReference<Map<String, long[]>> tail = new java.util.concurrent.atomic.AtomicReference<>();
        Map<String, Holders> live = tables.inTransaction(c -> {
            if (!tailsRead) {
                tail.set(tails.read(c, names, run.runToken(), 1000));
            }
            Map<String, Holders> holders = tables.shares().renewAll(c, names, run.runToken(), TTL);
            if (withGroups) {
                pacing.adapter().sync(c, run.clock().instant());
            }
            Holders mine = holders.get(relay);
            connectionPart.set(connections.sync(c, run.runToken(), mine == null ? 1 : mine.holders()));
            return holders;
        });
        connections.apply(connectionPart.get());
        lastRenewal = timing.nanoTime().getAsLong();
        mostHolders = live.values().stream().mapToInt(Holders::holders).max().orElse(1);
        rate.update(live.get(relay), pacing.adapter().rate(RateAdapter.relayKey(relay)).orElse(rate.relayRate()));
        if (tail.get() != null) {
            // A run that ended just before this one (of any campaign, on any worker) sent its last
            // second at these paces: count those sends, so the boundary second holds the rate
            // without this run waiting a whole second it need not.
            rate.limiter().startAfter(nanos(tail.get().get(relay)));
            if (withGroups) {
                Map<String, long[]> groups = new java.util.HashMap<>();
                tail.get().forEach((name, ages) -> groups.put(name, nanos(ages)));
                pacing.domains().startAfter(groups);
            }
            tailsRead = true;
        }
        if (withGroups) {
            pacing.domains().update(live);
            run.events().adaptedRates(relay, pacing.adapter().rates());
        }
        run.events().relayShare(relay, rate.current(), rate.relayRate());
    }

    /**
     * Gives the share back at once (it would expire by itself), leaving what this run sent at each
     * pace in its last second for the next run.
     */
    public void release() {
        Map<String, long[]> sent = new java.util.HashMap<>();
        sent.put(relay, millis(rate.limiter().recentAges()));
        if (withGroups) {
            pacing.domains().recentAges().forEach((name, ages) -> sent.put(name, millis(ages)));
        }
        sent.values().removeIf(ages -> ages.length == 0);
        try {
            run.tables().inTransaction(c -> {
                tails.write(c, run.runToken(), sent);
                run.tables().shares().releaseAll(c, names, run.runToken());
                return null;
            });
        } catch (SQLException e) {
            log.warn("Could not release the relay share of run {} (it expires by itself): {}", run.runToken(), e.getMessage());
        }
    }

    private static long[] nanos(long[] millis) {
        return millis == null ? new long[0] : java.util.Arrays.stream(millis).map(ms -> ms * 1_000_000L).toArray();
    }

    private static long[] millis(long[] nanos) {
        return java.util.Arrays.stream(nanos).map(ns -> ns / 1_000_000L).toArray();
    }
}
