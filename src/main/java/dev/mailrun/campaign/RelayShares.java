package dev.mailrun.campaign;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The relay_share table: how several workers keep one relay's rate in total. Each sending run
 * holds a row that it renews every batch; its rate is the relay's rate divided by the number of
 * live rows. A run that dies stops renewing and its row expires, giving its share back. Expiry is
 * judged by the database clock, like every lease in mailrun.
 */
public final class RelayShares {

    /** Renews this holder's share and returns how many live holders the relay has, this one included. */
    public int renew(Connection c, String relay, String holder, Duration ttl) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO relay_share (relay, holder, expires_at)
                VALUES (?, ?, UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND)
                ON DUPLICATE KEY UPDATE expires_at = VALUES(expires_at)""")) {
            ps.setString(1, relay);
            ps.setString(2, holder);
            ps.setLong(3, ttl.toNanos() / 1000);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(
                "DELETE FROM relay_share WHERE relay = ? AND expires_at < UTC_TIMESTAMP(3)")) {
            ps.setString(1, relay);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT COUNT(*) FROM relay_share WHERE relay = ? AND expires_at >= UTC_TIMESTAMP(3)")) {
            ps.setString(1, relay);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return Math.max(1, rs.getInt(1));
            }
        }
    }

    public void release(Connection c, String relay, String holder) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM relay_share WHERE relay = ? AND holder = ?")) {
            ps.setString(1, relay);
            ps.setString(2, holder);
            ps.executeUpdate();
        }
    }

    /** The rate one holder may use: the relay's share, capped by the campaign's own rate. 0 = unlimited. */
    public static double shareOf(double relayRate, int holders, double campaignCap) {
        double share = relayRate <= 0 ? 0 : relayRate / Math.max(1, holders);
        if (campaignCap > 0) {
            return share <= 0 ? campaignCap : Math.min(share, campaignCap);
        }
        return share;
    }
}
