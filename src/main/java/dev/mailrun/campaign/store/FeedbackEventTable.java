package dev.mailrun.campaign.store;

import dev.mailrun.db.SqlTime;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HexFormat;

/**
 * The feedback_event table: which provider events (and Mailgun signature tokens) were already applied,
 * so that a provider's retry of a delivery changes nothing.
 */
public final class FeedbackEventTable {

    private static final int MAX_ID = 200;

    /**
     * Records the id inside the caller's transaction; false when it was there already (a redelivery).
     * A concurrent delivery of the same event waits on the row and then finds it.
     */
    public boolean recordIfNew(Connection c, String provider, String eventId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT IGNORE INTO feedback_event (provider, event_id, received_at) VALUES (?, ?, ?)")) {
            ps.setString(1, provider);
            ps.setString(2, storable(eventId));
            SqlTime.set(ps, 3, now);
            return ps.executeUpdate() > 0;
        }
    }

    /** Deletes up to {@code limit} rows received before {@code before}; returns how many. */
    public int prune(Connection c, Instant before, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM feedback_event WHERE received_at < ? LIMIT ?")) {
            SqlTime.set(ps, 1, before);
            ps.setInt(2, limit);
            return ps.executeUpdate();
        }
    }

    /** Printable ASCII ids up to 200 characters as they are; any other id by its SHA-256 (the column is ASCII). */
    static String storable(String id) {
        boolean plain = id.length() <= MAX_ID && id.chars().allMatch(ch -> ch >= 0x21 && ch <= 0x7e);
        if (plain) {
            return id;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
        }
    }
}
