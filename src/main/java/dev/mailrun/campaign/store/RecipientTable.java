package dev.mailrun.campaign.store;

import dev.mailrun.campaign.model.BounceRate;
import dev.mailrun.campaign.model.ComplaintRate;
import dev.mailrun.campaign.model.ErrorCount;
import dev.mailrun.campaign.model.FailureFilter;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.RecipientStatus;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.db.SqlTime;
import java.io.IOException;
import java.util.HashSet;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The recipient table, and every statement on it: claiming due recipients for a run and writing
 * their outcomes back, the import's inserts, attributing bounces, and the counts reports read.
 *
 * <p>Longer than a class should be, on purpose: the table is the hot path of sending, and which
 * index each statement uses and which rows it locks can only be checked when all of them stand in
 * one place. The sections follow the life of a row:
 * claim and send, end of a run, reports, bounces, import.
 *
 * <p>Every statement on the sending path handles a whole batch: one SELECT per claim, one
 * batched UPDATE per kind of outcome. A recipient's row is written once per attempt, with its
 * result: neither the claim nor the mark before its message goes to SMTP writes it. What a run
 * has marked and not yet recorded is kept in {@link InFlightTable}, one row per campaign. Only one
 * run of a campaign's task holds its lease; a run that lost it (a zombie) may read the same rows
 * as its successor, but its marks and results ride in transactions that also extend or checkpoint
 * the task's lease, which fail without it and roll them back, and its successor turns what it had
 * in flight into unknown before claiming anything.
 */
public final class RecipientTable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SuppressionTable suppressions;

    public RecipientTable(SuppressionTable suppressions) {
        this.suppressions = suppressions;
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
                + notHeld + " ORDER BY next_attempt_at, id", campaignId, now, List.of(), null,
                held, limit, rows);
        if (rows.size() < limit) {
            selectWhere(c, "FORCE INDEX (ix_recipient_claim) WHERE campaign_id = ? AND status = 'pending'"
                    + " AND next_attempt_at IS NULL" + notHeld + " ORDER BY id", campaignId, null,
                    List.of(), null, held, limit - rows.size(), rows);
        }
        return suppressFound(c, rows, now);
    }

    /** {@code AND id NOT IN (…)} for the run's recipients claimed and not yet recorded; empty when there are none. */
    private static String notHeld(Collection<Long> held) {
        return held.isEmpty() ? "" : " AND id NOT IN (" + Sql.placeholders(held.size()) + ")";
    }

    /** Claimed rows: those on the suppression list become suppressed, the others go to the run as they are. */
    private Claim suppressFound(Connection c, List<ClaimedRecipient> rows, Instant now) throws SQLException {
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
        return new Claim(claimed, suppress(c, suppressed, now));
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
                    + notPaced + notHeld + " ORDER BY next_attempt_at, id", campaignId, now, paced,
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
                        + " AND next_attempt_at IS NULL AND id > ? AND id <= ?" + notPaced + notHeld
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
                        + " AND domain IN (" + Sql.placeholders(q.domains().size()) + ")" + notHeld
                        + " ORDER BY next_attempt_at, id", campaignId, now, q.domains(), null, held, q.limit(), rows);
                for (String domain : q.domains()) {
                    int left = q.limit() - (rows.size() - before);
                    if (left <= 0) {
                        break;
                    }
                    selectWhere(c, "FORCE INDEX (ix_recipient_domain_claim) WHERE campaign_id = ? AND queued = 1 AND status = 'pending'"
                            + " AND next_attempt_at IS NULL AND domain = ?" + notHeld + " ORDER BY id",
                            campaignId, null, List.of(domain), null, held, left, rows);
                }
            }
            quotaFound.add(rows.size() - before);
        }
        return new PacedClaim(suppressFound(c, rows, now), otherFound, lastOther, List.copyOf(quotaFound));
    }

    /**
     * One claim SELECT: {@code where} with its placeholders in this order — campaign, the due time
     * (when {@code now} is given), the id range (above its first, up to its second, when {@code ids}
     * is given), the domains, the held ids — then LIMIT. A plain read: a claim locks nothing.
     */
    private static void selectWhere(Connection c, String where, long campaignId, Instant now, List<String> domains,
                                    long[] ids, Collection<Long> held, int limit, List<ClaimedRecipient> into)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id, email, name, fields, attempts FROM recipient " + where
                + " LIMIT ?")) {
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
                    into.add(new ClaimedRecipient(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getInt(5)));
                }
            }
        }
    }

    /** Whether the campaign still has recipients to send to (pending or retry) at any of {@code domains}. */
    public boolean hasRemainingAt(Connection c, long campaignId, List<String> domains) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM recipient FORCE INDEX (ix_recipient_domain_claim) "
                + "WHERE campaign_id = ? AND domain IN (" + Sql.placeholders(domains.size()) + ") AND queued = 1 LIMIT 1")) {
            int i = 1;
            ps.setLong(i++, campaignId);
            for (String d : domains) {
                ps.setString(i++, d);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Claimed rows found on the suppression list become suppressed; returns how many did. */
    private static int suppress(Connection c, List<ClaimedRecipient> rows, Instant now) throws SQLException {
        if (rows.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE recipient SET status = '" + RecipientStatus.SUPPRESSED.dbValue()
                + "', updated_at = ? WHERE id IN (" + Sql.placeholders(rows.size()) + ") AND status IN ('pending', 'retry')")) {
            SqlTime.set(ps, 1, now);
            int i = 2;
            for (ClaimedRecipient r : rows) {
                ps.setLong(i++, r.id());
            }
            return ps.executeUpdate();
        }
    }

    /**
     * Writes the outcomes of a run's attempts: one batched statement per kind. Returns how many rows
     * changed; fewer than there are attempts (sent, failed, retry) means some of the campaign's rows
     * are gone (the campaign was deleted) and the caller must roll back. Recipients handed back
     * unsent ({@link Outcome.Released}) are not written: nothing was written to their rows when
     * they were claimed or marked, so they are in the queue as they were.
     *
     * <p>A row is found by its id alone, whatever its status: the run holds it (it is in the run's
     * {@link InFlightTable} row, and the caller's transaction is fenced by the run's lease), and a
     * bounce of an earlier attempt that failed the row meanwhile is overtaken by this attempt's outcome.
     */
    public int record(Connection c, long campaignId, Collection<? extends Outcome> outcomes, Instant now) throws SQLException {
        Map<Class<?>, List<Outcome>> byKind = new HashMap<>();
        for (Outcome o : outcomes) {
            byKind.computeIfAbsent(o.getClass(), k -> new ArrayList<>()).add(o);
        }
        int changed = 0;
        changed += sent(c, campaignId, byKind.get(Outcome.Sent.class), now);
        changed += batch(c, byKind.get(Outcome.Retry.class), """
                UPDATE recipient SET status = 'retry', attempts = attempts + 1, next_attempt_at = ?, last_code = ?,
                       last_error = ?, relay = ?, updated_at = ?
                WHERE id = ? AND campaign_id = ?""", (ps, o) -> {
            Outcome.Retry r = (Outcome.Retry) o;
            SqlTime.set(ps, 1, r.nextAttemptAt());
            ps.setInt(2, r.code());
            ps.setString(3, SuppressionTable.truncate(r.error(), 1000));
            ps.setString(4, r.relay());
            SqlTime.set(ps, 5, now);
            ps.setLong(6, r.recipientId());
            ps.setLong(7, campaignId);
        });
        changed += batch(c, byKind.get(Outcome.Failed.class), """
                UPDATE recipient SET status = 'failed', attempts = attempts + 1, next_attempt_at = NULL, last_code = ?,
                       last_error = ?, relay = ?, updated_at = ?
                WHERE id = ? AND campaign_id = ?""", (ps, o) -> {
            Outcome.Failed f = (Outcome.Failed) o;
            ps.setInt(1, f.code());
            ps.setString(2, SuppressionTable.truncate(f.error(), 1000));
            ps.setString(3, f.relay());
            SqlTime.set(ps, 4, now);
            ps.setLong(5, f.recipientId());
            ps.setLong(6, campaignId);
        });
        return changed;
    }

    /** Rows per statement when recording sent recipients: a few thousand parameters at most. */
    private static final int SENT_ROWS_PER_STATEMENT = 500;

    /**
     * Sent recipients, the hot path: one UPDATE joined to the flush's rows (id, Message-ID, time)
     * instead of one UPDATE per recipient, which cost the database a statement per message.
     */
    private static int sent(Connection c, long campaignId, List<Outcome> outcomes, Instant now) throws SQLException {
        if (outcomes == null || outcomes.isEmpty()) {
            return 0;
        }
        int changed = 0;
        for (int from = 0; from < outcomes.size(); from += SENT_ROWS_PER_STATEMENT) {
            List<Outcome> chunk = outcomes.subList(from, Math.min(outcomes.size(), from + SENT_ROWS_PER_STATEMENT));
            String rows = "SELECT ? AS id, ? AS message_id, ? AS sent_at, ? AS relay"
                    + " UNION ALL SELECT ?, ?, ?, ?".repeat(chunk.size() - 1);
            // FORCE INDEX: rows are found by id, never by scanning the campaign, so the statement
            // locks only its own rows.
            try (PreparedStatement ps = c.prepareStatement("UPDATE recipient r FORCE INDEX (PRIMARY) JOIN (" + rows + ") v ON r.id = v.id "
                    + "SET r.status = 'sent', r.attempts = r.attempts + 1, r.sent_at = v.sent_at, r.message_id = v.message_id, r.relay = v.relay, "
                    + "r.last_code = NULL, r.last_error = NULL, r.next_attempt_at = NULL, r.updated_at = ? "
                    + "WHERE r.campaign_id = ?")) {
                int i = 1;
                for (Outcome o : chunk) {
                    Outcome.Sent sent = (Outcome.Sent) o;
                    ps.setLong(i++, sent.recipientId());
                    ps.setString(i++, sent.messageId());
                    SqlTime.set(ps, i++, sent.at());
                    ps.setString(i++, sent.relay());
                }
                SqlTime.set(ps, i++, now);
                ps.setLong(i, campaignId);
                changed += ps.executeUpdate();
            }
        }
        return changed;
    }

    @FunctionalInterface
    private interface Binder {
        void bind(PreparedStatement ps, Outcome o) throws SQLException;
    }

    private static int batch(Connection c, List<Outcome> outcomes, String sql, Binder binder) throws SQLException {
        if (outcomes == null || outcomes.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (Outcome o : outcomes) {
                binder.bind(ps, o);
                ps.addBatch();
            }
            int changed = 0;
            for (int n : ps.executeBatch()) {
                // With rewritten batches the driver may report SUCCESS_NO_INFO (-2) per row.
                changed += n == PreparedStatement.SUCCESS_NO_INFO ? 1 : n;
            }
            return changed;
        }
    }

    /** Ids per statement when turning a dead run's recipients unknown. */
    private static final int UNKNOWN_IDS_PER_STATEMENT = 1_000;

    /**
     * A run of the campaign's task died or failed with {@code inFlight} marked and not recorded
     * (its {@link InFlightTable} row): those still waiting become unknown, since their messages may
     * have been sent. Returns how many did. By primary key, a bounded number of rows.
     */
    public int markUnknown(Connection c, long campaignId, Collection<Long> inFlight, Instant now) throws SQLException {
        List<Long> ids = new ArrayList<>(inFlight);
        int unknown = 0;
        for (int from = 0; from < ids.size(); from += UNKNOWN_IDS_PER_STATEMENT) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + UNKNOWN_IDS_PER_STATEMENT));
            try (PreparedStatement ps = c.prepareStatement("UPDATE recipient SET status = 'unknown', updated_at = ? WHERE id IN ("
                    + Sql.placeholders(chunk.size()) + ") AND campaign_id = ? AND status IN ('pending', 'retry')")) {
                SqlTime.set(ps, 1, now);
                int i = 2;
                for (long id : chunk) {
                    ps.setLong(i++, id);
                }
                ps.setLong(i, campaignId);
                unknown += ps.executeUpdate();
            }
        }
        return unknown;
    }

    /**
     * At a campaign's expiry: up to {@code limit} recipients still waiting (pending or retry)
     * become expired, never to be sent. Returns how many; the caller repeats until fewer
     * than {@code limit}, one transaction each, so no statement locks the whole queue at once.
     */
    public int expireWaiting(Connection c, long campaignId, Instant now, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE recipient SET status = 'expired', next_attempt_at = NULL, updated_at = ?
                WHERE campaign_id = ? AND status IN ('pending', 'retry') LIMIT ?""")) {
            SqlTime.set(ps, 1, now);
            ps.setLong(2, campaignId);
            ps.setInt(3, limit);
            return ps.executeUpdate();
        }
    }

    /** Whether a recipient is pending or a retry is already due. */
    public boolean hasPendingNow(Connection c, long campaignId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT EXISTS (SELECT 1 FROM recipient WHERE campaign_id = ? AND status = 'pending' AND next_attempt_at IS NULL)
                    OR EXISTS (SELECT 1 FROM recipient WHERE campaign_id = ? AND status = 'retry' AND next_attempt_at <= ?)""")) {
            ps.setLong(1, campaignId);
            ps.setLong(2, campaignId);
            SqlTime.set(ps, 3, now);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** Operator's decision to send unknown recipients again. */
    public int requeueUnknown(Connection c, long campaignId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE recipient SET status = 'pending', next_attempt_at = NULL, updated_at = ?
                WHERE campaign_id = ? AND status = 'unknown'""")) {
            SqlTime.set(ps, 1, now);
            ps.setLong(2, campaignId);
            return ps.executeUpdate();
        }
    }

    /**
     * Counts by status for one campaign. {@code inFlight} are the ids its run has marked for sending
     * and not yet recorded ({@link InFlightTable}): those still waiting count as sending, which no
     * row stores.
     */
    public Map<RecipientStatus, Long> counts(Connection c, long campaignId, Collection<Long> inFlight) throws SQLException {
        Map<RecipientStatus, Long> counts = new EnumMap<>(RecipientStatus.class);
        for (RecipientStatus s : RecipientStatus.values()) {
            counts.put(s, 0L);
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT status, COUNT(*) FROM recipient WHERE campaign_id = ? GROUP BY status")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    counts.put(RecipientStatus.fromDb(rs.getString(1)), rs.getLong(2));
                }
            }
        }
        if (inFlight.isEmpty()) {
            return counts;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT status, COUNT(*) FROM recipient WHERE id IN ("
                + Sql.placeholders(inFlight.size()) + ") AND campaign_id = ? AND status IN ('pending', 'retry') GROUP BY status")) {
            int i = 1;
            for (long id : inFlight) {
                ps.setLong(i++, id);
            }
            ps.setLong(i, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    RecipientStatus waiting = RecipientStatus.fromDb(rs.getString(1));
                    counts.merge(waiting, -rs.getLong(2), Long::sum);
                    counts.merge(RecipientStatus.SENDING, rs.getLong(2), Long::sum);
                }
            }
        }
        return counts;
    }

    /** A relay's part in one campaign: recipients its last attempt left sent, failed, or waiting for a retry (deferred). */
    public record RelayCount(String relay, long sent, long failed, long deferred) {}

    /** Per relay, the campaign's recipients by the outcome of the attempt that relay took last. */
    public List<RelayCount> relayCounts(Connection c, long campaignId) throws SQLException {
        List<RelayCount> counts = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT relay, SUM(status = 'sent'), SUM(status = 'failed'), SUM(status = 'retry') FROM recipient
                WHERE campaign_id = ? AND relay IS NOT NULL GROUP BY relay ORDER BY relay""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    counts.add(new RelayCount(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)));
                }
            }
        }
        return counts;
    }

    /** The most common last errors among failed and retrying recipients. */
    public List<ErrorCount> topErrors(Connection c, long campaignId, int limit) throws SQLException {
        List<ErrorCount> top = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT status, COALESCE(last_code, 0), COALESCE(last_error, ''), COUNT(*) n FROM recipient
                WHERE campaign_id = ? AND status IN ('failed', 'retry')
                GROUP BY status, last_code, last_error ORDER BY n DESC LIMIT ?""")) {
            ps.setLong(1, campaignId);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    top.add(new ErrorCount(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getLong(4)));
                }
            }
        }
        return top;
    }

    /** Whether anything is left to send now or later (pending or retry). */
    public boolean hasWorkLeft(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT EXISTS (SELECT 1 FROM recipient WHERE campaign_id = ? AND status IN ('pending', 'retry'))""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** Earliest next_attempt_at among retries, to schedule the next run when only retries are left. */
    public Optional<Instant> nextRetryAt(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT MIN(next_attempt_at) FROM recipient WHERE campaign_id = ? AND status = 'retry'")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return Optional.ofNullable(SqlTime.get(rs, 1));
            }
        }
    }

    /** A failed recipient an operator may hand back to the queue. */
    public record FailedRecipient(long id, String email) {}

    /**
     * Failed recipients of the campaign that match {@code filter}, in id order after
     * {@code afterId}, at most {@code limit}: read in pages so a large campaign is not read at once.
     */
    public List<FailedRecipient> failed(Connection c, long campaignId, FailureFilter filter, long afterId, int limit)
            throws SQLException {
        StringBuilder sql = new StringBuilder("""
                SELECT id, email FROM recipient
                WHERE campaign_id = ? AND status = 'failed' AND id > ?""");
        filter.codeClass().ifPresent(k -> sql.append(" AND last_code BETWEEN ? AND ?"));
        filter.code().ifPresent(k -> sql.append(" AND last_code = ?"));
        filter.errorContains().ifPresent(k -> sql.append(" AND LOWER(last_error) LIKE ? ESCAPE '!'"));
        sql.append(" ORDER BY id LIMIT ?");
        List<FailedRecipient> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            int i = 1;
            ps.setLong(i++, campaignId);
            ps.setLong(i++, afterId);
            if (filter.codeClass().isPresent()) {
                ps.setInt(i++, filter.codeClass().get() * 100);
                ps.setInt(i++, filter.codeClass().get() * 100 + 99);
            }
            if (filter.code().isPresent()) {
                ps.setInt(i++, filter.code().get());
            }
            if (filter.errorContains().isPresent()) {
                String words = filter.errorContains().get().toLowerCase(Locale.ROOT)
                        .replace("!", "!!").replace("%", "!%").replace("_", "!_");
                ps.setString(i++, "%" + words + "%");
            }
            ps.setInt(i, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new FailedRecipient(rs.getLong(1), rs.getString(2)));
                }
            }
        }
        return rows;
    }

    /**
     * Hands failed recipients back to the queue with a fresh attempt budget (an operator's
     * decision after failures that were not about the address). Returns how many changed.
     */
    public int requeueFailed(Connection c, long campaignId, List<Long> ids, Instant now) throws SQLException {
        if (ids.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE recipient SET status = 'pending', attempts = 0, next_attempt_at = NULL, last_code = NULL,
                       last_error = NULL, updated_at = ?
                WHERE campaign_id = ? AND status = 'failed' AND id IN (""" + Sql.placeholders(ids.size()) + ")")) {
            SqlTime.set(ps, 1, now);
            ps.setLong(2, campaignId);
            int i = 3;
            for (long id : ids) {
                ps.setLong(i++, id);
            }
            return ps.executeUpdate();
        }
    }

    // ---- export -----------------------------------------------------------------------------

    /**
     * One recipient as {@code campaign export} writes it: its outcome, and its latest bounce event
     * (kind and time) when it has one.
     */
    public record ExportedRecipient(long id, String email, RecipientStatus status, int attempts, Integer lastCode,
                                    String lastError, Instant sentAt, String messageId, String bounceKind,
                                    Instant bouncedAt) {}

    /** The campaign's smallest recipient id, where an export in id order starts; empty when it has none. */
    public Optional<Long> firstId(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT MIN(id) FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long id = rs.getLong(1);
                return rs.wasNull() ? Optional.empty() : Optional.of(id);
            }
        }
    }

    /**
     * Up to {@code limit} recipients of the campaign with an id of at least {@code fromId}, in id order.
     * The primary key is walked from {@code fromId} (no index leads with campaign and id): start at
     * {@link #firstId} and the whole export reads the campaign's id range once. A recipient with
     * several bounce events (a soft one, then a hard one) shows the latest.
     */
    public List<ExportedRecipient> exportPage(Connection c, long campaignId, long fromId, int limit) throws SQLException {
        List<ExportedRecipient> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT r.id, r.email, r.status, r.attempts, r.last_code, r.last_error, r.sent_at, r.message_id,
                       (SELECT e.kind FROM bounce_event e WHERE e.recipient_id = r.id
                        ORDER BY e.created_at DESC, e.kind LIMIT 1) AS bounce_kind,
                       (SELECT MAX(e.created_at) FROM bounce_event e WHERE e.recipient_id = r.id) AS bounced_at
                FROM recipient r FORCE INDEX (PRIMARY)
                WHERE r.campaign_id = ? AND r.id >= ? ORDER BY r.id LIMIT ?""")) {
            ps.setLong(1, campaignId);
            ps.setLong(2, fromId);
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int code = rs.getInt(5);
                    Integer lastCode = rs.wasNull() ? null : code;
                    rows.add(new ExportedRecipient(rs.getLong(1), rs.getString(2), RecipientStatus.fromDb(rs.getString(3)),
                            rs.getInt(4), lastCode, rs.getString(6), SqlTime.get(rs, 7), rs.getString(8), rs.getString(9),
                            SqlTime.get(rs, 10)));
                }
            }
        }
        return rows;
    }

    // ---- bounces ----------------------------------------------------------------------------


    /** The send a bounce names by its signed return path, locked for the bounce's changes. */
    public Optional<MatchedRecipient> bouncedById(Connection c, long campaignId, long recipientId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id, campaign_id, email, status FROM recipient WHERE id = ? AND campaign_id = ? FOR UPDATE""")) {
            ps.setLong(1, recipientId);
            ps.setLong(2, campaignId);
            return oneMatch(ps);
        }
    }

    /** Message-IDs are stored as the sender wrote them; match with and without angle brackets. */
    public Optional<MatchedRecipient> bouncedByMessageId(Connection c, String messageId) throws SQLException {
        String bare = messageId.startsWith("<") && messageId.endsWith(">")
                ? messageId.substring(1, messageId.length() - 1) : messageId;
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id, campaign_id, email, status FROM recipient WHERE message_id IN (?, ?)
                ORDER BY id LIMIT 1 FOR UPDATE""")) {
            ps.setString(1, bare);
            ps.setString(2, "<" + bare + ">");
            return oneMatch(ps);
        }
    }

    /**
     * Marks a send failed after a hard bounce, if it is still in a state a bounce can overturn.
     * A row already failed (or suppressed, or never sent) keeps its state, so a repeat does nothing.
     * A retry a run holds in flight meanwhile gets the outcome of that attempt when it is recorded.
     */
    public boolean markBounced(Connection c, long recipientId, int code, String error, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE recipient SET status = 'failed', next_attempt_at = NULL, last_code = ?, last_error = ?, updated_at = ?
                WHERE id = ? AND status IN ('sent', 'retry')""")) {
            ps.setInt(1, code);
            ps.setString(2, SuppressionTable.truncate(error, 1000));
            SqlTime.set(ps, 3, now);
            ps.setLong(4, recipientId);
            return ps.executeUpdate() > 0;
        }
    }

    private static Optional<MatchedRecipient> oneMatch(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next()
                    ? Optional.of(new MatchedRecipient(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4)))
                    : Optional.empty();
        }
    }

    /**
     * A campaign's hard-bounce rate. Sends are its recipients with a final outcome of trying (sent
     * or failed); hard bounces are those failed with a 5xx reply — refused during the SMTP dialogue
     * or bounced later — plus any send with a hard bounce_event whose row no longer says failed.
     */
    public BounceRate hardBounceRate(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT COALESCE(SUM(r.status IN ('sent', 'failed') OR e.recipient_id IS NOT NULL), 0),
                       COALESCE(SUM((r.status = 'failed' AND r.last_code BETWEEN 500 AND 599) OR e.recipient_id IS NOT NULL), 0)
                FROM recipient r
                LEFT JOIN bounce_event e ON e.recipient_id = r.id AND e.kind = 'hard'
                WHERE r.campaign_id = ?""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new BounceRate(campaignId, rs.getLong(2), rs.getLong(1));
            }
        }
    }

    /**
     * A campaign's complaint rate. Sends are its recipients marked sent (a complaint is about a
     * message that arrived) plus any with a complaint whose row says otherwise; complaints are its
     * complaint bounce_events (index ix_bounce_event_campaign).
     */
    public ComplaintRate complaintRate(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT (SELECT COUNT(*) FROM recipient WHERE campaign_id = ? AND status = 'sent')
                     + (SELECT COUNT(*) FROM bounce_event e JOIN recipient r ON r.id = e.recipient_id
                        WHERE e.campaign_id = ? AND e.kind = 'complaint' AND r.status <> 'sent'),
                       (SELECT COUNT(*) FROM bounce_event WHERE campaign_id = ? AND kind = 'complaint')""")) {
            ps.setLong(1, campaignId);
            ps.setLong(2, campaignId);
            ps.setLong(3, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new ComplaintRate(campaignId, rs.getLong(2), rs.getLong(1));
            }
        }
    }

    /**
     * The latest send to an address in any campaign, locked for a provider event's changes: for events
     * whose echoed ids are missing or name another address. Tries the address as given and lower-cased
     * (recipient.email keeps the local part's case; providers may not). Index ix_recipient_email.
     */
    public Optional<MatchedRecipient> latestSendTo(Connection c, EmailAddress address) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id, campaign_id, email, status FROM recipient
                WHERE email IN (?, ?) AND status NOT IN ('pending', 'suppressed')
                ORDER BY sent_at IS NULL, sent_at DESC, id DESC LIMIT 1 FOR UPDATE""")) {
            ps.setString(1, address.value());
            ps.setString(2, address.suppressionKey());
            return oneMatch(ps);
        }
    }

    /**
     * The merge-field names every recipient of the campaign has; empty when it has no recipients.
     * Reads the distinct key sets only, not every row's fields.
     */
    public Optional<Set<String>> commonFieldNames(Connection c, long campaignId) throws SQLException {
        Set<String> common = null;
        try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT JSON_KEYS(fields) FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Set<String> keys = jsonKeys(rs.getString(1));
                    if (common == null) {
                        common = new HashSet<>(keys);
                    } else {
                        common.retainAll(keys);
                    }
                }
            }
        }
        return Optional.ofNullable(common);
    }

    private static Set<String> jsonKeys(String json) {
        if (json == null) {
            return Set.of();
        }
        try {
            return new HashSet<>(JSON.readValue(json, new TypeReference<List<String>>() {}));
        } catch (IOException e) {
            throw new IllegalStateException("unreadable merge-field keys: " + json, e);
        }
    }

    // ---- import ---------------------------------------------------------------------------------

    /** One row of an import: the normalised address, its merge fields as JSON, and its line in the file. */
    public record NewRecipient(String email, String name, String fieldsJson, long line) {}

    /**
     * Multi-row {@code INSERT IGNORE} statements for one import's transaction, every value a bound
     * parameter. One statement is prepared per row count, so the full chunks of a batch share it:
     * preparing a statement of 7,000 parameters costs the server a parse and a reply per parameter
     * each time. Only a few are kept: chunks cut short by their size in bytes have counts of their
     * own, and each prepared statement holds memory on the server until it is closed.
     */
    public Inserts inserts(Connection c, long campaignId, String importId, Instant now) {
        return new Inserts(c, campaignId, importId, SqlTime.literal(now));
    }

    /** Prepared insert statements of one transaction; close them with the transaction. */
    public static final class Inserts implements AutoCloseable {
        private final Connection c;
        private final long campaignId;
        private final String importId;
        private final String stamp;
        private static final int KEPT = 4;
        private final Map<Integer, PreparedStatement> prepared = new HashMap<>();

        private Inserts(Connection c, long campaignId, String importId, String stamp) {
            this.c = c;
            this.campaignId = campaignId;
            this.importId = importId;
            this.stamp = stamp;
        }

        /**
         * Inserts the rows as pending recipients; returns how many went in. An address the campaign
         * already has, in any letter case, does not ({@code uq_recipient_email_key}).
         */
        public int insert(List<NewRecipient> rows) throws SQLException {
            if (rows.isEmpty()) {
                return 0;
            }
            PreparedStatement ps = prepared.get(rows.size());
            if (ps == null) {
                ps = serverPrepared(c, insertSql(rows.size()));
                if (prepared.size() >= KEPT) {
                    try (PreparedStatement once = ps) {
                        return execute(once, rows);
                    }
                }
                prepared.put(rows.size(), ps);
            }
            return execute(ps, rows);
        }

        private int execute(PreparedStatement ps, List<NewRecipient> rows) throws SQLException {
            int p = 1;
            for (NewRecipient r : rows) {
                ps.setLong(p++, campaignId);
                ps.setString(p++, r.email());
                ps.setString(p++, r.name());
                ps.setString(p++, r.fieldsJson());
                ps.setString(p++, importId);
                ps.setLong(p++, r.line());
                ps.setString(p++, stamp);
            }
            return ps.executeUpdate();
        }

        @Override
        public void close() throws SQLException {
            SQLException first = null;
            for (PreparedStatement ps : prepared.values()) {
                try {
                    ps.close();
                } catch (SQLException e) {
                    first = first == null ? e : first;
                }
            }
            if (first != null) {
                throw first;
            }
        }

        private static String insertSql(int rowCount) {
            StringBuilder sql = new StringBuilder(160 + rowCount * 32).append(
                    "INSERT IGNORE INTO recipient (campaign_id, email, name, fields, status, import_id, import_line, updated_at) VALUES ");
            for (int i = 0; i < rowCount; i++) {
                sql.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?, 'pending', ?, ?, ?)");
            }
            return sql.toString();
        }

        /**
         * A server-side prepared statement when the driver offers one: thousands of values then
         * travel in the binary protocol instead of being escaped into SQL text by the client, which
         * was most of the import's CPU time. Any other driver gets an ordinary prepared statement.
         */
        private static PreparedStatement serverPrepared(Connection c, String sql) throws SQLException {
            if (c.isWrapperFor(com.mysql.cj.jdbc.JdbcConnection.class)) {
                return c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).serverPrepareStatement(sql);
            }
            return c.prepareStatement(sql);
        }
    }

    /**
     * Which of these addresses are already recipients of the campaign, found by suppression key
     * (the whole address lower-cased, as {@code uq_recipient_email_key} compares them): key → its
     * line in import {@code importId}, or -1 when it came from another import.
     */
    public Map<String, Long> importedLines(Connection c, long campaignId, String importId, List<String> suppressionKeys)
            throws SQLException {
        Map<String, Long> found = new HashMap<>();
        if (suppressionKeys.isEmpty()) {
            return found;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT email_key, import_id, import_line FROM recipient WHERE campaign_id = ? AND legacy_duplicate = 0 AND email_key IN ("
                        + Sql.placeholders(suppressionKeys.size()) + ")")) {
            ps.setLong(1, campaignId);
            int i = 2;
            for (String key : suppressionKeys) {
                ps.setString(i++, key);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    boolean ours = importId.equals(rs.getString(2));
                    found.put(rs.getString(1), ours ? rs.getLong(3) : -1L);
                }
            }
        }
        return found;
    }
}
