package dev.mailrun.campaign.store;

import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The recipient_in_flight table: per campaign, the recipients its sending run has marked for
 * sending and not yet recorded, and the run that holds them.
 *
 * <p>This is what a crash can leave unknown. A run writes the whole set each time it changes — in
 * the transaction that extends its lease when it marks recipients, in the one that checkpoints its
 * counters when it records their results — so the set in the table and the recipient rows always
 * agree. The set is small (the connections plus one flush), so one row replaces a write of every
 * recipient's row before its message is sent, which cost a row write per message on the hot path.
 *
 * <p>Every write of a run is conditional on its token: a run whose row was taken over by another
 * writes nothing.
 */
public final class InFlightTable {

    /** The ids a run left in flight, and that run; {@code runToken} is empty once they were dealt with. */
    public record Held(Optional<String> runToken, SortedSet<Long> recipientIds) {}

    /**
     * The campaign's row, locked until the transaction ends; empty when the campaign has none yet.
     * A locking read: it sees what a run that died committed just before, whatever the caller's
     * transaction read earlier.
     */
    public Optional<Held> lock(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT run_token, recipient_ids FROM recipient_in_flight WHERE campaign_id = ? FOR UPDATE")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Held(Optional.ofNullable(rs.getString(1)), parse(rs.getString(2))))
                        : Optional.empty();
            }
        }
    }

    /** The ids in flight for the campaign, whichever run holds them (a plain read, for reports). */
    public SortedSet<Long> ids(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT recipient_ids FROM recipient_in_flight WHERE campaign_id = ?")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? parse(rs.getString(1)) : new TreeSet<>();
            }
        }
    }

    /**
     * Gives the campaign's row to {@code runToken} with nothing in flight. The caller has dealt with
     * what it held before ({@link #lock} in the same transaction).
     */
    public void hold(Connection c, long campaignId, String runToken, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO recipient_in_flight (campaign_id, run_token, recipient_ids, updated_at) VALUES (?, ?, '', ?)
                ON DUPLICATE KEY UPDATE run_token = ?, recipient_ids = '', updated_at = ?""")) {
            // The bound values repeated, not VALUES(col): deprecated in MySQL 8.0.20, and the row
            // alias that replaces it is unknown to MariaDB.
            ps.setLong(1, campaignId);
            ps.setString(2, runToken);
            SqlTime.set(ps, 3, now);
            ps.setString(4, runToken);
            SqlTime.set(ps, 5, now);
            ps.executeUpdate();
        }
    }

    /**
     * Replaces the ids {@code runToken} holds in flight. False when the row is not that run's (it
     * was taken over): the caller rolls back.
     */
    public boolean write(Connection c, long campaignId, String runToken, SortedSet<Long> ids, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE recipient_in_flight SET recipient_ids = ?, updated_at = ? WHERE campaign_id = ? AND run_token = ?")) {
            ps.setString(1, format(ids));
            SqlTime.set(ps, 2, now);
            ps.setLong(3, campaignId);
            ps.setString(4, runToken);
            return ps.executeUpdate() == 1;
        }
    }

    /** The ids a run left were dealt with: the row is held by no run and holds nothing. */
    public void release(Connection c, long campaignId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE recipient_in_flight SET run_token = NULL, recipient_ids = '', updated_at = ? WHERE campaign_id = ?")) {
            SqlTime.set(ps, 1, now);
            ps.setLong(2, campaignId);
            ps.executeUpdate();
        }
    }

    static String format(SortedSet<Long> ids) {
        StringBuilder s = new StringBuilder(ids.size() * 8);
        for (long id : ids) {
            if (s.length() > 0) {
                s.append(',');
            }
            s.append(id);
        }
        return s.toString();
    }

    static SortedSet<Long> parse(String ids) {
        SortedSet<Long> parsed = new TreeSet<>();
        if (ids == null || ids.isEmpty()) {
            return parsed;
        }
        for (String id : ids.split(",")) {
            parsed.add(Long.parseLong(id));
        }
        return parsed;
    }
}
