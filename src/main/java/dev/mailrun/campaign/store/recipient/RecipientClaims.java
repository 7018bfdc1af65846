package dev.mailrun.campaign.store.recipient;

import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Claiming: the statements that hand a run its next recipients, plain ({@link #claim}) or with paced
 * domain groups ({@link #claimPaced}). A claim is a read: it writes nothing to the rows it returns,
 * except that recipients found on the suppression list become suppressed on the way.
 */
public final class RecipientClaims {

    /** What a message is built from, read by {@link #row}: a claim's columns, and a web version's. */
    static final String COLUMNS = "id, email, name, fields, attempts, attachment, attachment_sha256, variant";

    private final SuppressionTable suppressions;
    /** {@code " AND variant IS NOT NULL"} while an A/B test sends its test share; empty otherwise. */
    private final String onlyVariants;
    private final StatusCountTable counts = new StatusCountTable();

    public RecipientClaims(SuppressionTable suppressions) {
        this(suppressions, false);
    }

    private RecipientClaims(SuppressionTable suppressions, boolean testShareOnly) {
        this.suppressions = suppressions;
        this.onlyVariants = testShareOnly ? " AND variant IS NOT NULL" : "";
    }

    /**
     * The same claims, taking only recipients that have a variant: an A/B test's test share, while
     * the rest wait for the winner.
     */
    public RecipientClaims testShareOnly() {
        return new RecipientClaims(suppressions, true);
    }

    /** The recipients a claim handed to the run, and how many it found suppressed instead. */
    public record Claim(List<ClaimedRecipient> recipients, int suppressed) {}

    /**
     * Claims up to {@code limit} due recipients — retries whose time has come first, then pending
     * ones in id order — for the run to send. Nothing is written to them: they keep their status
     * (pending or retry) until their result is recorded, so after a crash only recipients the run
     * had in flight ({@link InFlightTable}) become unknown, and the others are simply still in the
     * queue. {@code held} are the run's own recipients claimed earlier and not yet recorded (the
     * batch being sent while the next one is claimed, and results not yet written): they are not
     * returned again. Recipients on the suppression list become suppressed instead. Call inside a
     * transaction.
     *
     * <p>Why a claim writes nothing: stamping each row with the run token was a write of every row,
     * and the claim cost the server 39-41 µs per recipient with it, 7-8 µs without it. The lease
     * keeps a second run of the task away.
     */
    public Claim claim(Connection c, long campaignId, Instant now, int limit, Collection<Long> held) throws SQLException {
        // FORCE INDEX: with ORDER BY id LIMIT n the optimizer may walk the primary key instead,
        // reading every sent row below the first pending one — measured 734,572 rows read per
        // claim once 730,000 of 1,000,000 were sent, against 949 on the claim index.
        List<ClaimedRecipient> rows = new ArrayList<>(limit);
        String notHeld = notHeld(held);
        selectWhere(c, "FORCE INDEX (ix_recipient_claim) WHERE campaign_id = ? AND status = 'retry' AND next_attempt_at <= ?"
                + notHeld + onlyVariants + " ORDER BY next_attempt_at, id", campaignId, now, List.of(), null,
                held, limit, rows);
        if (rows.size() < limit) {
            selectWhere(c, "FORCE INDEX (ix_recipient_claim) WHERE campaign_id = ? AND status = 'pending'"
                    + " AND next_attempt_at IS NULL" + notHeld + onlyVariants + " ORDER BY id", campaignId, null,
                    List.of(), null, held, limit - rows.size(), rows);
        }
        return suppressFound(c, campaignId, rows, now);
    }

    /** Whether these claims take only an A/B test's share ({@link #testShareOnly}). */
    public boolean takesTestShareOnly() {
        return !onlyVariants.isEmpty();
    }

    /** A claim of the test share, and the highest pending id it took (0: none), the next claim's cursor. */
    public record CursorClaim(Claim claim, long lastPendingId) {}

    /**
     * {@link #claim} for the test share, reading pending rows from {@code from} (the highest id the
     * run claimed so far) to the end, then from the start up to it (rows handed back): the pending
     * rows outside the test share that the run already walked past are not read again by every
     * claim, which would read most of the list each time near the end of the test phase.
     */
    public CursorClaim claimFrom(Connection c, long campaignId, Instant now, int limit, Collection<Long> held, long from)
            throws SQLException {
        List<ClaimedRecipient> rows = new ArrayList<>(limit);
        String notHeld = notHeld(held);
        selectWhere(c, "FORCE INDEX (ix_recipient_claim) WHERE campaign_id = ? AND status = 'retry' AND next_attempt_at <= ?"
                + notHeld + onlyVariants + " ORDER BY next_attempt_at, id", campaignId, now, List.of(), null, held, limit, rows);
        long last = 0;
        long[][] ranges = from > 0 ? new long[][] {{from, Long.MAX_VALUE}, {0, from}} : new long[][] {{0, Long.MAX_VALUE}};
        for (long[] range : ranges) {
            int before = rows.size();
            if (before >= limit) {
                break;
            }
            selectWhere(c, "FORCE INDEX (ix_recipient_claim) WHERE campaign_id = ? AND status = 'pending'"
                    + " AND next_attempt_at IS NULL AND id > ? AND id <= ?" + notHeld + onlyVariants + " ORDER BY id",
                    campaignId, null, List.of(), range, held, limit - before, rows);
            for (int i = before; i < rows.size(); i++) {
                last = Math.max(last, rows.get(i).id());
            }
        }
        return new CursorClaim(suppressFound(c, campaignId, rows, now), last);
    }

    /** {@code AND id NOT IN (…)} for the run's recipients claimed and not yet recorded; empty when there are none. */
    private static String notHeld(Collection<Long> held) {
        return held.isEmpty() ? "" : " AND id NOT IN (" + Sql.placeholders(held.size()) + ")";
    }

    /** Claimed rows: those on the suppression list become suppressed, the others go to the run as they are. */
    private Claim suppressFound(Connection c, long campaignId, List<ClaimedRecipient> rows, Instant now) throws SQLException {
        if (rows.isEmpty()) {
            return new Claim(List.of(), 0);
        }
        Map<String, List<ClaimedRecipient>> byKey = new HashMap<>();
        for (ClaimedRecipient r : rows) {
            byKey.computeIfAbsent(EmailAddress.of(r.email()).suppressionKey(), k -> new ArrayList<>()).add(r);
        }
        Set<String> suppressedKeys = suppressions.suppressedAmong(c, byKey.keySet());
        List<ClaimedRecipient> suppressed = new ArrayList<>();
        List<ClaimedRecipient> claimed = new ArrayList<>(rows.size());
        for (ClaimedRecipient r : rows) {
            (suppressedKeys.contains(EmailAddress.of(r.email()).suppressionKey()) ? suppressed : claimed).add(r);
        }
        return new Claim(claimed, suppress(c, campaignId, suppressed, now));
    }

    /** Up to {@code limit} recipients at any of {@code domains}: one paced domain group's part of a claim. */
    public record DomainQuota(List<String> domains, int limit) {}

    /**
     * A paced claim: what it claimed, and how many rows each part found (before suppression), so the
     * caller can tell which parts of the queue ran dry.
     *
     * @param lastOtherId the highest pending id the unpaced part claimed; 0 when it claimed none
     */
    public record PacedClaim(Claim claim, int otherFound, long lastOtherId, List<Integer> quotaFound) {}

    /**
     * {@link #claim} when some domains are paced: up to {@code others} recipients at domains outside
     * {@code paced}, and up to each quota's limit at that quota's domains, in one transaction, so a
     * capped domain never holds back the rest of the list.
     *
     * <ul>
     *   <li>The unpaced part reads the claim index in id order from {@code othersFrom} (the last id
     *       it claimed): rows of paced domains it walks past are not read again by the next claim.
     *       When it finds too few it starts once more from the beginning, for rows handed back.</li>
     *   <li>A quota reads {@code ix_recipient_domain_claim} one domain at a time — (campaign,
     *       domain, queued, NULL) in id order — so it reads only the rows it returns (and those
     *       the run holds).</li>
     *   <li>Retries whose time has come go first in each part, as in {@link #claim}.</li>
     * </ul>
     */
    public PacedClaim claimPaced(Connection c, long campaignId, Instant now, int others, long othersFrom,
                                 List<String> paced, List<DomainQuota> quotas, Collection<Long> held) throws SQLException {
        List<ClaimedRecipient> rows = new ArrayList<>();
        String notHeld = notHeld(held);
        String notPaced = paced.isEmpty() ? "" : " AND domain NOT IN (" + Sql.placeholders(paced.size()) + ")";
        long lastOther = 0;
        if (others > 0) {
            selectWhere(c, "FORCE INDEX (ix_recipient_claim) WHERE campaign_id = ? AND status = 'retry' AND next_attempt_at <= ?"
                    + notPaced + notHeld + onlyVariants + " ORDER BY next_attempt_at, id", campaignId, now, paced,
                    null, held, others, rows);
            // From the cursor to the end, then from the start up to the cursor: never a row twice.
            long[][] ranges = othersFrom > 0 ? new long[][] {{othersFrom, Long.MAX_VALUE}, {0, othersFrom}}
                    : new long[][] {{0, Long.MAX_VALUE}};
            for (long[] range : ranges) {
                int before = rows.size();
                if (before >= others) {
                    break;
                }
                selectWhere(c, "FORCE INDEX (ix_recipient_claim) WHERE campaign_id = ? AND status = 'pending'"
                        + " AND next_attempt_at IS NULL AND id > ? AND id <= ?" + notPaced + notHeld + onlyVariants
                        + " ORDER BY id", campaignId, null, paced, range, held, others - before, rows);
                for (int i = before; i < rows.size(); i++) {
                    lastOther = Math.max(lastOther, rows.get(i).id());
                }
            }
        }
        int otherFound = rows.size();
        List<Integer> quotaFound = new ArrayList<>(quotas.size());
        for (DomainQuota q : quotas) {
            int before = rows.size();
            if (q.limit() > 0) {
                selectWhere(c, "FORCE INDEX (ix_recipient_claim) WHERE campaign_id = ? AND status = 'retry' AND next_attempt_at <= ?"
                        + " AND domain IN (" + Sql.placeholders(q.domains().size()) + ")" + notHeld + onlyVariants
                        + " ORDER BY next_attempt_at, id", campaignId, now, q.domains(), null, held, q.limit(), rows);
                for (String domain : q.domains()) {
                    int left = q.limit() - (rows.size() - before);
                    if (left <= 0) {
                        break;
                    }
                    selectWhere(c, "FORCE INDEX (ix_recipient_domain_claim) WHERE campaign_id = ? AND queued = 1 AND status = 'pending'"
                            + " AND next_attempt_at IS NULL AND domain = ?" + notHeld + onlyVariants + " ORDER BY id",
                            campaignId, null, List.of(domain), null, held, left, rows);
                }
            }
            quotaFound.add(rows.size() - before);
        }
        return new PacedClaim(suppressFound(c, campaignId, rows, now), otherFound, lastOther, List.copyOf(quotaFound));
    }

    /**
     * One claim SELECT: {@code where} with its placeholders in this order — campaign, the due time
     * (when {@code now} is given), the id range (above its first, up to its second, when {@code ids}
     * is given), the domains, the held ids — then LIMIT. A plain read: a claim locks nothing.
     */
    private void selectWhere(Connection c, String where, long campaignId, Instant now, List<String> domains,
                                    long[] ids, Collection<Long> held, int limit, List<ClaimedRecipient> into)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM recipient " + where + " LIMIT ?")) {
            int i = 1;
            ps.setLong(i++, campaignId);
            if (now != null) {
                SqlTime.set(ps, i++, now);
            }
            if (ids != null) {
                ps.setLong(i++, ids[0]);
                ps.setLong(i++, ids[1]);
            }
            for (String d : domains) {
                ps.setString(i++, d);
            }
            for (long id : held) {
                ps.setLong(i++, id);
            }
            ps.setInt(i, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    into.add(row(rs));
                }
            }
        }
    }

    /** The recipient at the result set's row, selected as {@link #COLUMNS}. */
    static ClaimedRecipient row(ResultSet rs) throws SQLException {
        int read = rs.getInt(8);
        Integer variant = rs.wasNull() ? null : read;
        return new ClaimedRecipient(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getInt(5),
                rs.getString(6), rs.getString(7), variant);
    }

    /** Claimed rows found on the suppression list become suppressed; returns how many did. */
    private int suppress(Connection c, long campaignId, List<ClaimedRecipient> rows, Instant now) throws SQLException {
        if (rows.isEmpty()) {
            return 0;
        }
        List<StatusCountTable.Row> waiting = counts.lock(c, campaignId, rows.stream().map(ClaimedRecipient::id).toList(),
                List.of("pending", "retry"));
        if (waiting.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE recipient SET status = '" + RecipientStatus.SUPPRESSED.dbValue()
                + "', updated_at = ? WHERE id IN (" + Sql.placeholders(waiting.size()) + ")")) {
            SqlTime.set(ps, 1, now);
            int i = 2;
            for (StatusCountTable.Row r : waiting) {
                ps.setLong(i++, r.id());
            }
            int n = ps.executeUpdate();
            counts.apply(c, campaignId, new StatusCountTable.Delta().move(waiting, RecipientStatus.SUPPRESSED.dbValue()));
            return n;
        }
    }
}
