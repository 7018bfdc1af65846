package dev.mailrun.campaign.store;

import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The recipient_reply table: one row per recipient who replied, the first reply's time. */
public final class ReplyTable {

    /** Rows per INSERT: a batch of the mailbox is written in one statement (or a few). */
    static final int ROWS_PER_STATEMENT = 500;

    /** A reply traced to its send. */
    public record Reply(long campaignId, long recipientId, Instant repliedAt) {}

    /**
     * Records the first reply of each recipient; a recipient with one recorded keeps it (a message
     * read twice, after a crash between the commit and its mark, changes nothing). Only a recipient
     * row of that campaign gets one: the rows are joined to it.
     *
     * @return how many recipients got their first reply
     */
    public int record(Connection c, List<Reply> replies, Instant now) throws SQLException {
        // Within a batch, the earliest of one recipient's replies is its first.
        Map<List<Long>, Reply> first = new LinkedHashMap<>();
        for (Reply r : replies) {
            first.merge(List.of(r.campaignId(), r.recipientId()), r,
                    (a, b) -> b.repliedAt().isBefore(a.repliedAt()) ? b : a);
        }
        List<Reply> rows = List.copyOf(first.values());
        int added = 0;
        for (int from = 0; from < rows.size(); from += ROWS_PER_STATEMENT) {
            List<Reply> part = rows.subList(from, Math.min(rows.size(), from + ROWS_PER_STATEMENT));
            String values = "SELECT ? AS campaign_id, ? AS recipient_id, ? AS replied_at"
                    + " UNION ALL SELECT ?, ?, ?".repeat(part.size() - 1);
            // IGNORE: a recipient with a reply recorded keeps the first (the key is its campaign and id).
            try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO recipient_reply "
                    + "(campaign_id, recipient_id, replied_at, recorded_at) "
                    + "SELECT r.campaign_id, r.id, v.replied_at, ? FROM (" + values + ") v "
                    + "JOIN recipient r ON r.id = v.recipient_id AND r.campaign_id = v.campaign_id")) {
                int i = 1;
                SqlTime.set(ps, i++, now);
                for (Reply r : part) {
                    ps.setLong(i++, r.campaignId());
                    ps.setLong(i++, r.recipientId());
                    SqlTime.set(ps, i++, r.repliedAt());
                }
                added += ps.executeUpdate();
            }
        }
        return added;
    }

    /**
     * Recipients of an A/B test share who replied, by their variant (recipient.variant → count): what
     * {@code --pick-by replies} compares.
     */
    public Map<Integer, Long> repliersByVariant(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT r.variant, COUNT(*) FROM recipient_reply rr
                JOIN recipient r ON r.id = rr.recipient_id
                WHERE rr.campaign_id = ? AND r.ab_test_share = 1
                GROUP BY r.variant""")) {
            ps.setLong(1, campaignId);
            Map<Integer, Long> byVariant = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    byVariant.put(rs.getInt(1), rs.getLong(2));
                }
            }
            return byVariant;
        }
    }

    /** Recipients outside an A/B test share (the rest, sent the winner) who replied. */
    public long repliersOfRest(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT COUNT(*) FROM recipient_reply rr
                JOIN recipient r ON r.id = rr.recipient_id
                WHERE rr.campaign_id = ? AND r.ab_test_share = 0""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
