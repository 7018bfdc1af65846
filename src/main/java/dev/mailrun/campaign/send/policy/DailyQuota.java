package dev.mailrun.campaign.send.policy;

import dev.mailrun.campaign.send.route.WeightedSplit;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.DailyCountTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToLongFunction;

/**
 * One run's use of the {@link DailyCap} of each relay of its route, counted per relay and day in
 * {@link DailyCountTable}:
 * <ol>
 *   <li>a claim, in its own transaction, locks the day's row of every relay of the route (in name
 *       order, so claimers of routes listing the same relays in another order cannot deadlock) and
 *       may take what the relays it can send through have left ({@link #allow});</li>
 *   <li>it deals what it took among those relays by their weights, never past what one has left (a
 *       relay at its cap passes its weight on like a relay that is down), and adds each relay's part
 *       to its row in the same transaction ({@link #took}): one statement per relay, never one per
 *       recipient. Once committed ({@link #committed}) each recipient is reserved for its relay and
 *       day, and the run sends it through that relay only ({@link #relayOf});</li>
 *   <li>recipients handed back unsent give their slot back to the relay and day they were reserved
 *       for, in the flush that hands them back ({@link #giveBack}); a recipient whose relay went down
 *       is handed back, and the next claim reserves it on a relay that is up and has room.</li>
 * </ol>
 * Claims and flushes of a run take turns (the run's checkpoint lock); the reservations are also
 * read by the run's thread as it deals a batch, hence the lock around them.
 */
public final class DailyQuota {

    /**
     * What a claim may take: {@code count} recipients, counted on {@code day} (empty: no cap that
     * day), at most {@code room} of them per relay; {@code left} is what each relay's cap leaves.
     */
    public record Allowance(Optional<LocalDate> day, int count, Map<String, Long> room, Map<String, Long> left) {

        public Allowance {
            room = Map.copyOf(room);
            left = Map.copyOf(left);
        }
    }

    /** A committed claim's recipients, each with its relay, and their day. */
    private record Taken(LocalDate day, Map<Long, String> relays) {}

    /** Hand-backs concern the batch being sent and the one claimed ahead; a few more are kept to be safe. */
    private static final int CLAIMS_REMEMBERED = 4;

    private final DailyCap cap;
    private final List<String> relays;
    private final int[] weights;
    private final DailyCountTable table;
    private final WeightedSplit split;
    private final Deque<Taken> recent = new ArrayDeque<>();
    private Taken uncommitted;
    private volatile LocalDate reachedOn;
    /** The relays whose day was used up as of the last claim: the route's rate leaves them out. */
    private volatile Set<String> full = Set.of();

    /**
     * @param relays  the route's relays, in its order
     * @param weights their weights, as the route gives them ({@code RelayRoute.weights()}: never all 0)
     */
    public DailyQuota(DailyCap cap, List<String> relays, int[] weights, DailyCountTable table) {
        this.cap = Objects.requireNonNull(cap, "cap");
        this.relays = List.copyOf(relays);
        this.weights = weights.clone();
        if (this.relays.isEmpty() || this.relays.size() != this.weights.length) {
            throw new IllegalArgumentException("a route needs one weight per relay, got " + relays + " and "
                    + weights.length + " weight(s)");
        }
        this.table = table;
        this.split = new WeightedSplit(this.relays.size());
    }


    /**
     * Inside a claim's transaction, before it selects recipients: how many of {@code max} it may take.
     *
     * @param usable how many recipients each relay may be given now, before its cap: 0 for a relay
     *               that is down, 1 for one whose back-off has passed (its probe), {@link Long#MAX_VALUE}
     *               for one that is up
     */
    public Allowance allow(Connection c, Instant now, int max, ToLongFunction<String> usable) throws SQLException {
        LocalDate day = cap.dayOf(now);
        OptionalLong volume = cap.volumeOn(day);
        if (volume.isEmpty()) {
            full = Set.of();
            return new Allowance(Optional.empty(), max, Map.of(), Map.of());
        }
        Map<String, Long> room = new LinkedHashMap<>();
        Map<String, Long> left = new LinkedHashMap<>();
        for (String relay : new TreeSet<>(relays)) {
            long l = Math.max(0, volume.getAsLong() - table.lock(c, relay, day));
            left.put(relay, l);
            room.put(relay, Math.min(l, Math.max(0, usable.applyAsLong(relay))));
        }
        full = fullOf(left);
        if (full.size() == left.size()) {
            reachedOn = day;
        }
        // A relay of weight 0 counts too: it takes the weight of one at its cap, as of one that is down.
        long total = room.values().stream().mapToLong(Long::longValue).sum();
        return new Allowance(Optional.of(day), (int) Math.min(max, total), room, left);
    }

    private static Set<String> fullOf(Map<String, Long> left) {
        Set<String> f = new HashSet<>();
        left.forEach((relay, l) -> {
            if (l <= 0) {
                f.add(relay);
            }
        });
        return Set.copyOf(f);
    }

    /** In the same transaction: deals what the claim took among the relays and counts each relay's part. */
    public void took(Connection c, Allowance allowance, List<ClaimedRecipient> rows) throws SQLException {
        uncommitted = null;
        if (allowance.day().isEmpty() || rows.isEmpty()) {
            return;
        }
        Map<String, Long> left = new HashMap<>(allowance.room());
        Map<Long, String> reserved = new HashMap<>();
        Map<String, Long> perRelay = new TreeMap<>();
        for (ClaimedRecipient r : rows) {
            String relay = relays.get(split.next(weightsWithRoom(left)));
            left.merge(relay, -1L, Long::sum);
            perRelay.merge(relay, 1L, Long::sum);
            reserved.put(r.id(), relay);
        }
        Map<String, Long> after = new HashMap<>(allowance.left());
        for (Map.Entry<String, Long> e : perRelay.entrySet()) {
            table.add(c, e.getKey(), allowance.day().get(), e.getValue());
            after.merge(e.getKey(), -e.getValue(), Long::sum);
        }
        full = fullOf(after);
        uncommitted = new Taken(allowance.day().get(), reserved);
    }

    /**
     * The route's weights with every relay that has no room left passing its weight on, as a relay
     * that is down does ({@link WeightedSplit#effective}).
     */
    private int[] weightsWithRoom(Map<String, Long> left) {
        boolean[] open = new boolean[relays.size()];
        for (int i = 0; i < open.length; i++) {
            open[i] = left.get(relays.get(i)) > 0;
        }
        // The claim took no more than the relays' room, so one always has some left here.
        return WeightedSplit.effective(weights, open);
    }

    /** After the claim committed: its recipients are reserved for their relays and day. */
    public synchronized void committed() {
        if (uncommitted != null) {
            recent.addFirst(uncommitted);
            while (recent.size() > CLAIMS_REMEMBERED) {
                recent.removeLast();
            }
            uncommitted = null;
        }
    }

    /** The relay recipient {@code id} was reserved for by its newest claim; empty when no cap counted it. */
    public synchronized Optional<String> relayOf(long id) {
        for (Taken t : recent) {
            String relay = t.relays().get(id);
            if (relay != null) {
                return Optional.of(relay);
            }
        }
        return Optional.empty();
    }

    /**
     * Inside the flush's transaction: the slots of {@code releasedIds} (handed back, never sent) go
     * back to the relays and days they were reserved for. A recipient claimed again is found in its
     * newest claim.
     */
    public void giveBack(Connection c, Collection<Long> releasedIds) throws SQLException {
        if (releasedIds.isEmpty()) {
            return;
        }
        Map<LocalDate, Map<String, Long>> byDay = new TreeMap<>();
        synchronized (this) {
            for (long id : releasedIds) {
                for (Taken t : recent) {
                    String relay = t.relays().get(id);
                    if (relay != null) {
                        byDay.computeIfAbsent(t.day(), d -> new TreeMap<>()).merge(relay, 1L, Long::sum);
                        break;
                    }
                }
            }
        }
        for (Map.Entry<LocalDate, Map<String, Long>> day : byDay.entrySet()) {
            for (Map.Entry<String, Long> e : day.getValue().entrySet()) {
                table.giveBack(c, e.getKey(), day.getKey(), e.getValue());
            }
        }
    }

    /** The day a claim of this run found every relay of the route at its cap, if one did. */
    public Optional<LocalDate> reachedOn() {
        return Optional.ofNullable(reachedOn);
    }

    /**
     * Whether {@code relay} had used up its day as of this run's last claim: it takes no recipients
     * until the day ends, so the route's rate must not count on it.
     */
    public boolean full(String relay) {
        return full.contains(relay);
    }
}
