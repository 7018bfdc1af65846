package dev.mailrun.campaign.store.recipient;

import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The campaign_sent_second table: how many of a campaign's recipients were marked sent in each
 * second (the sending run's clock, truncated to the second). The current rate {@code campaign
 * status} shows is read here, a minute's rows, instead of from the sent rows' {@code sent_at},
 * which has no index and meant reading every sent row of the campaign.
 */
public final class SentSecondTable {

    /** Seconds older than this are deleted at the end of each run: the report reads the last minute. */
    public static final Duration KEPT = Duration.ofMinutes(10);

    /**
     * Adds the seconds of {@code sentAt} (one instant per recipient): one statement, as
     * {@link StatusCountTable#apply} (a batched upsert of this shape costs a round trip per second).
     */
    public void add(Connection c, long campaignId, Collection<Instant> sentAt) throws SQLException {
        if (sentAt.isEmpty()) {
            return;
        }
        Map<Instant, Long> perSecond = new TreeMap<>();
        sentAt.forEach(t -> perSecond.merge(t.truncatedTo(ChronoUnit.SECONDS), 1L, Long::sum));
        String rows = "SELECT ? AS campaign_id, ? AS second, ? AS dn" + " UNION ALL SELECT ?, ?, ?".repeat(perSecond.size() - 1);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO campaign_sent_second (campaign_id, second, n) "
                + "SELECT campaign_id, second, dn FROM (" + rows + ") v ON DUPLICATE KEY UPDATE n = n + v.dn")) {
            int i = 1;
            for (Map.Entry<Instant, Long> e : perSecond.entrySet()) {
                ps.setLong(i++, campaignId);
                SqlTime.set(ps, i++, e.getKey());
                ps.setLong(i++, e.getValue());
            }
            ps.executeUpdate();
        }
    }

    /** Sent in the seconds from the one holding {@code since} on (to the second). */
    public long sentSince(Connection c, long campaignId, Instant since) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT COALESCE(SUM(n), 0) FROM campaign_sent_second WHERE campaign_id = ? AND second >= ?")) {
            ps.setLong(1, campaignId);
            SqlTime.set(ps, 2, since.truncatedTo(ChronoUnit.SECONDS));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The first second from the one holding {@code since} on in which the campaign sent anything. */
    public Optional<Instant> firstSince(Connection c, long campaignId, Instant since) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT MIN(second) FROM campaign_sent_second WHERE campaign_id = ? AND second >= ? AND n > 0")) {
            ps.setLong(1, campaignId);
            SqlTime.set(ps, 2, since.truncatedTo(ChronoUnit.SECONDS));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return Optional.ofNullable(SqlTime.get(rs, 1));
            }
        }
    }

    /** Deletes the campaign's seconds before {@code before}. */
    public int prune(Connection c, long campaignId, Instant before) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM campaign_sent_second WHERE campaign_id = ? AND second < ?")) {
            ps.setLong(1, campaignId);
            SqlTime.set(ps, 2, before);
            return ps.executeUpdate();
        }
    }

    /** Replaces the campaign's seconds since {@code since} by a fresh count of its sent rows. */
    public void rebuild(Connection c, long campaignId, Instant since) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM campaign_sent_second WHERE campaign_id = ?");
             PreparedStatement insert = c.prepareStatement("""
                     INSERT INTO campaign_sent_second (campaign_id, second, n)
                     SELECT campaign_id, sent_at - INTERVAL MICROSECOND(sent_at) MICROSECOND, COUNT(*) FROM recipient
                     WHERE campaign_id = ? AND status = 'sent' AND sent_at >= ?
                     GROUP BY campaign_id, sent_at - INTERVAL MICROSECOND(sent_at) MICROSECOND""")) {
            delete.setLong(1, campaignId);
            delete.executeUpdate();
            insert.setLong(1, campaignId);
            SqlTime.set(insert, 2, since.truncatedTo(ChronoUnit.SECONDS));
            insert.executeUpdate();
        }
    }
}
