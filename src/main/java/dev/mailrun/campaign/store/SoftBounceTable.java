package dev.mailrun.campaign.store;

import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/** The soft_bounce table: how many sends to an address have soft-bounced. */
public final class SoftBounceTable {

    /** Counts one more soft bounce for the address and returns the new total. */
    public int increment(Connection c, String suppressionKey, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO soft_bounce (address, bounces, first_at, last_at) VALUES (?, 1, ?, ?)
                ON DUPLICATE KEY UPDATE bounces = bounces + 1, last_at = ?""")) {
            ps.setString(1, suppressionKey);
            SqlTime.set(ps, 2, now);
            SqlTime.set(ps, 3, now);
            SqlTime.set(ps, 4, now);
            ps.executeUpdate();
        }
        return count(c, suppressionKey);
    }

    int count(Connection c, String suppressionKey) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT bounces FROM soft_bounce WHERE address = ?")) {
            ps.setString(1, suppressionKey);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        }
    }

    /** An erasure (docs/ERASURE.md): the address's count deleted. */
    public void erase(Connection c, String suppressionKey) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM soft_bounce WHERE address = ?")) {
            ps.setString(1, suppressionKey);
            ps.executeUpdate();
        }
    }
}
