package dev.mailrun.campaign.send.policy;

import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.DailyCountTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * One run's use of its relay's {@link DailyCap}, counted in {@link DailyCountTable}:
 * <ol>
 *   <li>a claim, in its own transaction, locks the relay's row for the day and may take what is
 *       left of the day's volume ({@link #allow});</li>
 *   <li>it adds what it took to the row in the same transaction ({@link #took}); once committed
 *       ({@link #committed}) the run remembers which day each of those recipients counts for;</li>
 *   <li>recipients handed back unsent give their slot back to that day, in the flush that hands
 *       them back ({@link #giveBack}).</li>
 * </ol>
 * Claims and flushes of a run take turns (the run's checkpoint lock), so the fields need no
 * more than that; {@link #reachedOn} is read by the run's thread too, hence volatile.
 */
public final class DailyQuota {

    /** What a claim may take: {@code count} recipients, counted on {@code day} (empty: no cap that day). */
    public record Allowance(Optional<LocalDate> day, int count) {}

    /** A committed claim's recipients and their day. */
    private record Taken(LocalDate day, Set<Long> ids) {}

    /** Hand-backs concern the batch being sent and the one claimed ahead; a few more are kept to be safe. */
    private static final int CLAIMS_REMEMBERED = 4;

    private final DailyCap cap;
    private final String relay;
    private final DailyCountTable table;
    private final Deque<Taken> recent = new ArrayDeque<>();
    private Taken uncommitted;
    private volatile LocalDate reachedOn;

    public DailyQuota(DailyCap cap, String relay, DailyCountTable table) {
        this.cap = cap;
        this.relay = relay;
        this.table = table;
    }

    /** Inside a claim's transaction, before it selects recipients: how many of {@code max} it may take. */
    public Allowance allow(Connection c, Instant now, int max) throws SQLException {
        LocalDate day = cap.dayOf(now);
        OptionalLong volume = cap.volumeOn(day);
        if (volume.isEmpty()) {
            return new Allowance(Optional.empty(), max);
        }
        long left = volume.getAsLong() - table.lock(c, relay, day);
        if (left <= 0) {
            reachedOn = day;
            return new Allowance(Optional.of(day), 0);
        }
        return new Allowance(Optional.of(day), (int) Math.min(max, left));
    }

    /** In the same transaction: counts what the claim took. */
    public void took(Connection c, Allowance allowance, List<ClaimedRecipient> rows) throws SQLException {
        uncommitted = null;
        if (allowance.day().isEmpty() || rows.isEmpty()) {
            return;
        }
        table.add(c, relay, allowance.day().get(), rows.size());
        Set<Long> ids = new HashSet<>();
        rows.forEach(r -> ids.add(r.id()));
        uncommitted = new Taken(allowance.day().get(), ids);
    }

    /** After the claim committed: its recipients count for its day. */
    public void committed() {
        if (uncommitted != null) {
            recent.addFirst(uncommitted);
            while (recent.size() > CLAIMS_REMEMBERED) {
                recent.removeLast();
            }
            uncommitted = null;
        }
    }

    /**
     * Inside the flush's transaction: the slots of {@code releasedIds} (handed back, never sent) go
     * back to the days they were claimed on. A recipient claimed again is found in its newest claim.
     */
    public void giveBack(Connection c, Collection<Long> releasedIds) throws SQLException {
        if (releasedIds.isEmpty() || recent.isEmpty()) {
            return;
        }
        Map<LocalDate, Long> byDay = new TreeMap<>();
        for (long id : releasedIds) {
            for (Iterator<Taken> it = recent.iterator(); it.hasNext(); ) {
                Taken t = it.next();
                if (t.ids().contains(id)) {
                    byDay.merge(t.day(), 1L, Long::sum);
                    break;
                }
            }
        }
        for (Map.Entry<LocalDate, Long> e : byDay.entrySet()) {
            table.giveBack(c, relay, e.getKey(), e.getValue());
        }
    }

    /** The day a claim of this run found the day's volume used up, if one did. */
    public Optional<LocalDate> reachedOn() {
        return Optional.ofNullable(reachedOn);
    }
}
