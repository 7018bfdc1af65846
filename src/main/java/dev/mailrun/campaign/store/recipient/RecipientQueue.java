package dev.mailrun.campaign.store.recipient;

import dev.mailrun.campaign.model.FailureFilter;
import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The queue's state as the scheduler and operators see it: whether work is left or due, the next
 * retry, expiry of what is still waiting, and an operator's requeue of unknown or failed recipients.
 */
public final class RecipientQueue {

    private final StatusCountTable counts = new StatusCountTable();

    /**
     * At a campaign's expiry: up to {@code limit} recipients still waiting (pending or retry)
     * become expired, never to be sent. Returns how many; the caller repeats until fewer
     * than {@code limit}, one transaction each, so no statement locks the whole queue at once.
     */
    public int expireWaiting(Connection c, long campaignId, Instant now, int limit) throws SQLException {
        return moveLocked(c, campaignId, counts.lockByStatus(c, campaignId, List.of("pending", "retry"), limit), "expired",
                "next_attempt_at = NULL", now);
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
        int requeued = 0;
        int step;
        do {
            step = moveLocked(c, campaignId, counts.lockByStatus(c, campaignId, List.of("unknown"), STEP), "pending",
                    "next_attempt_at = NULL", now);
            requeued += step;
        } while (step == STEP);
        return requeued;
    }

    /** Rows locked and changed per statement by a requeue of unknown recipients. */
    private static final int STEP = 5_000;

    /**
     * Moves rows read under their lock to status {@code to} (setting {@code also} too), by id, and
     * adds the move to the campaign's counts. Returns how many moved.
     */
    private int moveLocked(Connection c, long campaignId, List<StatusCountTable.Row> rows, String to, String also,
                           Instant now) throws SQLException {
        int moved = 0;
        for (int from = 0; from < rows.size(); from += StatusCountTable.IDS_PER_STATEMENT) {
            List<StatusCountTable.Row> chunk = rows.subList(from, Math.min(rows.size(), from + StatusCountTable.IDS_PER_STATEMENT));
            try (PreparedStatement ps = c.prepareStatement("UPDATE recipient FORCE INDEX (PRIMARY) SET status = ?, " + also
                    + ", updated_at = ? WHERE campaign_id = ? AND id IN (" + Sql.placeholders(chunk.size()) + ")")) {
                int i = 1;
                ps.setString(i++, to);
                SqlTime.set(ps, i++, now);
                ps.setLong(i++, campaignId);
                for (StatusCountTable.Row r : chunk) {
                    ps.setLong(i++, r.id());
                }
                moved += ps.executeUpdate();
            }
        }
        counts.apply(c, campaignId, new StatusCountTable.Delta().move(rows, to));
        return moved;
    }

    /** Whether anything is left to send now or later (pending or retry). */
    /** Whether the campaign's expiry left any recipient unsent. */
    public boolean hasExpired(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT EXISTS (SELECT 1 FROM recipient WHERE campaign_id = ? AND status = 'expired')""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

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
        return moveLocked(c, campaignId, counts.lock(c, campaignId, ids, List.of("failed")), "pending",
                "attempts = 0, next_attempt_at = NULL, last_code = NULL, last_error = NULL", now);
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

    /**
     * How many of a campaign's recipients at some domains still wait to be sent (pending or retry):
     * what a paced domain group has left, for the ETA {@code campaign status} shows. Counted in the
     * domain claim index alone.
     */
    public long remainingAt(Connection c, long campaignId, List<String> domains) throws SQLException {
        if (domains.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM recipient FORCE INDEX (ix_recipient_domain_claim) "
                + "WHERE campaign_id = ? AND domain IN (" + Sql.placeholders(domains.size()) + ") AND queued = 1")) {
            int i = 1;
            ps.setLong(i++, campaignId);
            for (String d : domains) {
                ps.setString(i++, d);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
