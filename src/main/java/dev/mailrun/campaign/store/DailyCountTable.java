package dev.mailrun.campaign.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;

/**
 * The daily_count table: messages claimed through each relay per calendar day, shared by every
 * worker. A claim {@link #lock locks} its relay's row for the day and {@link #add adds} what it
 * took in the same transaction, so the count and the claimed rows commit or roll back together.
 *
 * <p>The day is a plain DATE the caller computed in its configured zone, never converted by the
 * driver or the session time zone (it is bound as a string).
 */
public final class DailyCountTable {

    /**
     * Locks the relay's row for {@code day}, creating it at 0, and returns its count: the claimer
     * holds the row until its transaction ends, so a second claimer waits here rather than read a
     * count the first is about to raise.
     */
    public long lock(Connection c, String relay, LocalDate day) throws SQLException {
        // ON DUPLICATE KEY UPDATE takes the row's exclusive lock at once. INSERT IGNORE would take
        // a shared lock on an existing row, and two claimers each holding one would deadlock on
        // the FOR UPDATE below.
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO daily_count (relay, day, claimed) VALUES (?, ?, 0)
                ON DUPLICATE KEY UPDATE claimed = claimed""")) {
            ps.setString(1, relay);
            ps.setString(2, day.toString());
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT claimed FROM daily_count WHERE relay = ? AND day = ? FOR UPDATE")) {
            ps.setString(1, relay);
            ps.setString(2, day.toString());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Adds {@code n} to the row {@link #lock} locked. */
    public void add(Connection c, String relay, LocalDate day, long n) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE daily_count SET claimed = claimed + ? WHERE relay = ? AND day = ?")) {
            ps.setLong(1, n);
            ps.setString(2, relay);
            ps.setString(3, day.toString());
            ps.executeUpdate();
        }
    }

    /** Gives back {@code n} claimed on {@code day} and handed back unsent; never below 0. */
    public void giveBack(Connection c, String relay, LocalDate day, long n) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE daily_count SET claimed = GREATEST(claimed - ?, 0) WHERE relay = ? AND day = ?")) {
            ps.setLong(1, n);
            ps.setString(2, relay);
            ps.setString(3, day.toString());
            ps.executeUpdate();
        }
    }

    /** The count without locking, for reports; 0 for a day nothing was claimed on. */
    public long read(Connection c, String relay, LocalDate day) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT claimed FROM daily_count WHERE relay = ? AND day = ?")) {
            ps.setString(1, relay);
            ps.setString(2, day.toString());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }
}
