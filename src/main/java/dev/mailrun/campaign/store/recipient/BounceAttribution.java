package dev.mailrun.campaign.store.recipient;

import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.store.MatchedRecipient;
import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Finding the send a bounce, complaint or provider event is about, locked for its changes, and
 * marking a send failed after a hard bounce.
 */
public final class BounceAttribution {

    private final StatusCountTable counts = new StatusCountTable();

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
    public boolean markBounced(Connection c, long campaignId, long recipientId, int code, String error, Instant now)
            throws SQLException {
        List<StatusCountTable.Row> row = counts.lock(c, campaignId, List.of(recipientId), List.of("sent", "retry"));
        if (row.isEmpty()) {
            return false;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE recipient SET status = 'failed', next_attempt_at = NULL, last_code = ?, last_error = ?, updated_at = ?
                WHERE id = ?""")) {
            ps.setInt(1, code);
            ps.setString(2, Sql.truncate(error, 1000));
            SqlTime.set(ps, 3, now);
            ps.setLong(4, recipientId);
            ps.executeUpdate();
        }
        counts.apply(c, campaignId, new StatusCountTable.Delta().move(row, "failed"));
        return true;
    }

    private static Optional<MatchedRecipient> oneMatch(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next()
                    ? Optional.of(new MatchedRecipient(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4)))
                    : Optional.empty();
        }
    }

    /**
     * The latest send to an address in any campaign, locked for a provider event's changes: for events
     * whose echoed ids are missing or name another address. The address's case is ignored (its
     * suppression key, which recipient.email_key holds: recipient.email keeps the local part's case,
     * providers may not). Through the campaigns, each lookup on the (campaign_id, email_key) key; the
     * key is named so that no plan locks a campaign's rows by status instead.
     */
    public Optional<MatchedRecipient> latestSendTo(Connection c, EmailAddress address) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id, campaign_id, email, status FROM recipient FORCE INDEX (uq_recipient_email_key)
                WHERE campaign_id IN (SELECT id FROM campaign) AND email_key = ?
                  AND status NOT IN ('pending', 'suppressed')
                ORDER BY sent_at IS NULL, sent_at DESC, id DESC LIMIT 1 FOR UPDATE""")) {
            ps.setString(1, address.suppressionKey());
            return oneMatch(ps);
        }
    }
}
