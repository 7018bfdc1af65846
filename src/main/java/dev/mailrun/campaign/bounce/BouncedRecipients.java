package dev.mailrun.campaign.bounce;

import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * The recipient-table statements of bounce processing: finding the send a bounce belongs to and
 * marking it failed.
 */
final class BouncedRecipients {

    Optional<MatchedRecipient> byId(Connection c, long campaignId, long recipientId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id, campaign_id, email, status FROM recipient WHERE id = ? AND campaign_id = ? FOR UPDATE""")) {
            ps.setLong(1, recipientId);
            ps.setLong(2, campaignId);
            return one(ps);
        }
    }

    /** Message-IDs are stored as the sender wrote them; match with and without angle brackets. */
    Optional<MatchedRecipient> byMessageId(Connection c, String messageId) throws SQLException {
        String bare = messageId.startsWith("<") && messageId.endsWith(">")
                ? messageId.substring(1, messageId.length() - 1) : messageId;
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id, campaign_id, email, status FROM recipient WHERE message_id IN (?, ?)
                ORDER BY id LIMIT 1 FOR UPDATE""")) {
            ps.setString(1, bare);
            ps.setString(2, "<" + bare + ">");
            return one(ps);
        }
    }

    /**
     * Marks a send failed after a hard bounce, if it is still in a state a bounce can overturn.
     * A row already failed (or suppressed, or never sent) keeps its state, so a repeat does nothing.
     * run_token is left alone: a run still holding the row must not lose its lease over a bounce.
     */
    boolean markFailed(Connection c, long recipientId, int code, String error, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE recipient SET status = 'failed', next_attempt_at = NULL, last_code = ?, last_error = ?, updated_at = ?
                WHERE id = ? AND status IN ('sent', 'sending', 'retry')""")) {
            ps.setInt(1, code);
            ps.setString(2, BounceEventStore.truncate(error, 1000));
            SqlTime.set(ps, 3, now);
            ps.setLong(4, recipientId);
            return ps.executeUpdate() > 0;
        }
    }

    private static Optional<MatchedRecipient> one(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next()
                    ? Optional.of(new MatchedRecipient(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4)))
                    : Optional.empty();
        }
    }
}
