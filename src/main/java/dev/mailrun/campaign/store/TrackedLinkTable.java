package dev.mailrun.campaign.store;

import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.db.SqlTime;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The campaign_tracking and tracked_link tables: what a campaign tracks, and the URL each of its
 * rewritten links goes to.
 */
public final class TrackedLinkTable {

    /** Marks {@code campaignId} tracked (in the transaction that creates it). */
    public void setMode(Connection c, long campaignId, TrackingMode mode, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO campaign_tracking (campaign_id, opens, clicks, created_at) VALUES (?, ?, ?, ?)")) {
            ps.setLong(1, campaignId);
            ps.setBoolean(2, mode.opens());
            ps.setBoolean(3, mode.clicks());
            SqlTime.set(ps, 4, now);
            ps.executeUpdate();
        }
    }

    /** What the campaign tracks; empty: it is not tracked. */
    public Optional<TrackingMode> mode(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT opens, clicks FROM campaign_tracking WHERE campaign_id = ?")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new TrackingMode(rs.getBoolean(1), rs.getBoolean(2))) : Optional.empty();
            }
        }
    }

    /**
     * Stores the links of this run's template in index order, replacing what an earlier run stored
     * at the same index (the template as it is now is what the messages sent from now on carry).
     */
    public void saveLinks(Connection c, long campaignId, List<URI> links, Instant now) throws SQLException {
        if (links.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO tracked_link (campaign_id, link_index, url, updated_at) VALUES (?, ?, ?, ?)
                ON DUPLICATE KEY UPDATE url = ?, updated_at = ?""")) {
            for (int i = 0; i < links.size(); i++) {
                String url = links.get(i).toASCIIString();
                ps.setLong(1, campaignId);
                ps.setInt(2, i);
                ps.setString(3, url);
                SqlTime.set(ps, 4, now);
                ps.setString(5, url);
                SqlTime.set(ps, 6, now);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The campaign's links in index order (a gap, which cannot happen, as an empty slot). */
    public List<String> links(Connection c, long campaignId) throws SQLException {
        List<String> links = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT link_index, url FROM tracked_link WHERE campaign_id = ? ORDER BY link_index")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int index = rs.getInt(1);
                    while (links.size() < index) {
                        links.add("");
                    }
                    links.add(rs.getString(2));
                }
            }
        }
        return links;
    }

    /**
     * When the recipient's message was delivered, for a recipient of a tracked campaign whose
     * tracking data was not erased; empty otherwise (then a request for it records nothing). A
     * recipient not sent yet (a test, a forwarded old message) has the epoch as its delivery.
     */
    public Optional<Instant> trackedRecipient(Connection c, long campaignId, long recipientId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT r.sent_at FROM recipient r JOIN campaign_tracking t ON t.campaign_id = r.campaign_id
                WHERE r.id = ? AND r.campaign_id = ? AND r.tracking_erased = 0""")) {
            ps.setLong(1, recipientId);
            ps.setLong(2, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                Instant sent = SqlTime.get(rs, 1);
                return Optional.of(sent == null ? Instant.EPOCH : sent);
            }
        }
    }
}
