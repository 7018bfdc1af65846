package dev.mailrun.campaign.send.pace;

import dev.mailrun.campaign.send.scope.RunScope;
import dev.mailrun.campaign.send.scope.Tables;
import dev.mailrun.campaign.send.scope.Timing;
import dev.mailrun.campaign.store.PaceTailTable;
import dev.mailrun.campaign.store.PaceTailTable.Handover;
import dev.mailrun.campaign.store.RelayShareTable.Holders;
import dev.mailrun.campaign.store.RelayShareTable.Live;
import dev.mailrun.mail.smtp.SendRateLimiter;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This run's rows in {@code relay_share}: how several workers keep one relay's rate — and, for the
 * route's first relay, each domain group's — in total. The run takes its rows before it sends,
 * renews them every second (the flush thread does, mid-batch as well) and releases them at the end;
 * each renewal counts the live holders and updates the {@link RelayRate}; the one holding the domain
 * groups also brings the adapted rates up to date ({@link RateAdapter#sync}) and updates the
 * {@link DomainPacer}, in the same transaction, and hands its paces over to the runs joining them
 * ({@link ShareHandover}). A run that dies stops renewing, and its rows expire
 * after {@link #TTL} (judged by the database clock), giving its shares back to the others.
 */
public final class RelayShare {

    private static final Logger log = LoggerFactory.getLogger(RelayShare.class);
    static final Duration TTL = Duration.ofSeconds(60);
    /** How often a sending run re-reads its relay share, also in the middle of a batch. */
    public static final Duration RENEWAL = Duration.ofSeconds(1);
    /**
     * How often a joining run renews while it waits for the holders' handovers: often at first,
     * when runs starting together at a slot hand over to each other within milliseconds, then less
     * (a holder already sending hands over at its next renewal, within a second).
     */
    static final Duration JOIN_POLL_FIRST = Duration.ofMillis(10);
    static final Duration JOIN_POLL = Duration.ofMillis(50);
    private static final int FIRST_POLLS = 10;
    /**
     * How often a run renews in its first renewal period: runs of other workers start at the same
     * slot and wait for this one's handover, which it writes at a renewal.
     */
    static final Duration FIRST_RENEWALS = Duration.ofMillis(100);
    /**
     * How far back another run's sends are counted: the send windows' whole span, headroom included
     * (a send 1,002 ms old still binds the window), rounded up to the milliseconds they are stored in.
     */
    static final long WITHIN_MILLIS = (SendRateLimiter.SPAN.toNanos() + 999_999) / 1_000_000;

    private final RunScope run;
    private final String relay;
    private final RelayRate rate;
    private final Timing timing;
    private final Pacing pacing;
    private final boolean withGroups;
    private final List<String> names;
    private final RelayConnections connections;
    private final PaceTailTable tails = new PaceTailTable();
    private final ShareHandover handover = new ShareHandover();
    private volatile long lastRenewal;
    /** When (nanoTime) this run joined: its first renewal period renews every {@link #FIRST_RENEWALS}. */
    private volatile long joinedAt;
    /** This run told the other holders it wants less than its share of the relay (only capped domains left). */
    private boolean wanting;

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

    /**
     * Takes this run's share before it sends. Alone on every pace, it goes at once, counting what
     * the runs that just ended sent in their last second. Otherwise it waits until every other live
     * holder has handed over ({@link ShareHandover}), checking every {@link #JOIN_POLL} (at first every
     * {@link #JOIN_POLL_FIRST}), and counts their handovers, and the tails only those holders have not
     * counted (written before one of them joined with a window that held every send it counted, they
     * are in its window and its handovers already; see {@link #startAfter}).
     * A holder that does not hand over within two renewal periods (a worker of an older version, a
     * stalled one) is not waited for longer: the run then starts as if a whole second had just been
     * sent at each pace.
     */
    public void join() throws SQLException, InterruptedException {
        joinedAt = timing.nanoTime().getAsLong();
        Map<String, Live> live = renew();
        Instant giveUp = run.clock().instant().plus(RENEWAL.multipliedBy(2)).plusMillis(100);
        int polls = 0;
        while (true) {
            Map<String, Live> found = live;
            boolean counted = run.tables().inTransaction(c -> {
                Map<String, Map<String, long[]>> handed = tails.handedOver(c, run.runToken(), names, WITHIN_MILLIS);
                if (!ShareHandover.complete(found, handed)) {
                    return false;
                }
                Map<String, long[]> ended = tails.read(c, names, run.runToken(), WITHIN_MILLIS,
                        run.tables().shares().othersJoined(c, names, run.runToken()));
                // Joined only where the windows hold every send counted: a later joiner leaves the
                // tails written before to this run there, and counts them itself elsewhere.
                // Counted into the windows here, before the commit, so a retried transaction counts
                // afresh (startAfter forgets what was counted before).
                Set<String> held = startAfter(ShareHandover.counted(ended, handed));
                tails.deleteHandovers(c, run.runToken());
                run.tables().shares().joined(c, names.stream().filter(held::contains).toList(), run.runToken());
                return true;
            });
            if (counted) {
                return;
            }
            if (!run.clock().instant().isBefore(giveUp)) {
                log.info("Run {} joins {} without every holder's handover after {} ms: its first second waits",
                        run.runToken(), relay, RENEWAL.multipliedBy(2).plusMillis(100).toMillis());
                rate.limiter().startFull();
                if (withGroups) {
                    pacing.domains().startFull();
                }
                // A full window counts every tail too: a later joiner leaves them to this run.
                run.tables().inTransaction(c -> {
                    run.tables().shares().joined(c, names, run.runToken());
                    return null;
                });
                return;
            }
            timing.sleeper().sleepUntil(run.clock().instant().plus(polls++ < FIRST_POLLS ? JOIN_POLL_FIRST : JOIN_POLL));
            live = renew();
        }
    }

    /**
     * Starts each window from what it counts.
     *
     * @return the names whose windows hold every send counted for them. Where a window holds only
     *         the newest (more than its share within the last second: runs that joined together, each
     *         with its share of the tails of the runs before), the older sends bind none of this run's
     *         messages, so no later joiner may take them as counted here ({@link PaceTailTable#read}).
     */
    private Set<String> startAfter(Map<String, long[]> countedNanos) {
        Set<String> held = new HashSet<>(names);
        if (!rate.limiter().startAfter(countedNanos.getOrDefault(relay, new long[0]))) {
            held.remove(relay);
        }
        if (withGroups) {
            Map<String, long[]> groups = new HashMap<>(countedNanos);
            groups.remove(relay);
            held.removeAll(pacing.domains().startAfter(groups));
        }
        return held;
    }

    /**
     * Renews the share when a renewal period has passed since the last; sooner ({@link #FIRST_RENEWALS})
     * in the run's first period, when other runs joining wait for this one's handover, and when the
     * run has just found that only capped domains are left, so the others take the rest of its share
     * a period earlier.
     */
    public void renewIfDue() throws SQLException {
        long now = timing.nanoTime().getAsLong();
        long since = now - lastRenewal;
        if (since >= RENEWAL.toNanos()) {
            renew();
        } else if (since >= FIRST_RENEWALS.toNanos()
                && (now - joinedAt < RENEWAL.toNanos() || (withGroups && !wanting && pacing.domains().onlyPaced().isPresent()))) {
            renew();
        }
    }

    /**
     * Renews every row of this run, counts the live holders and sets this run's paces from them —
     * inside the transaction, so that a handover written in it follows the lowered paces.
     */
    private synchronized Map<String, Live> renew() throws SQLException {
        Tables tables = run.tables();
        AtomicReference<Optional<Integer>> connectionPart = new AtomicReference<>(Optional.empty());
        AtomicReference<List<Handover>> owed = new AtomicReference<>(List.of());
        AtomicBoolean wants = new AtomicBoolean();
        Map<String, Live> live = tables.inTransaction(c -> {
            Map<String, Live> holders = tables.shares().renewAll(c, names, run.runToken(), TTL);
            // Taken once the holders are read: a holder found gone released its rows before, and
            // sent its last message before that, so a larger share waits a whole span from here.
            long nanos = timing.nanoTime().getAsLong();
            if (withGroups) {
                pacing.adapter().sync(c, run.clock().instant());
            }
            Live mine = holders.get(relay);
            connectionPart.set(connections.sync(c, run.runToken(), mine.holders().holders()));
            if (withGroups && !wanting) {
                // Only capped domains left: the rest of this run's share is the other holders'.
                OptionalDouble only = pacing.domains().onlyPaced();
                if (only.isPresent()) {
                    double whole = Math.ceil(only.getAsDouble());
                    tables.shares().want(c, relay, run.runToken(), whole);
                    rate.want(whole);
                    wants.set(true);
                }
            }
            handover.lowered(relay, rate.update(mine,
                    pacing.adapter().rate(RateAdapter.relayKey(relay)).orElse(rate.relayRate()), nanos));
            if (withGroups) {
                Map<String, Holders> counts = new HashMap<>();
                holders.forEach((name, l) -> counts.put(name, l.holders()));
                pacing.domains().update(counts, nanos).forEach(handover::lowered);
            }
            owed.set(handover.owed(holders));
            tails.handOver(c, run.runToken(), owed.get());
            return holders;
        });
        handover.written(live, owed.get());
        wanting |= wants.get();
        connections.apply(connectionPart.get());
        lastRenewal = timing.nanoTime().getAsLong();
        if (withGroups) {
            run.events().adaptedRates(relay, pacing.adapter().rates());
        }
        run.events().relayShare(relay, rate.current(), rate.relayRate());
        return live;
    }

    /**
     * Gives the share back at once (it would expire by itself), leaving what this run sent at each
     * pace in its last second for the next run.
     */
    public void release() {
        Map<String, long[]> sent = new HashMap<>();
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

    private static long[] millis(long[] nanos) {
        return java.util.Arrays.stream(nanos).map(ns -> ns / 1_000_000L).toArray();
    }
}
