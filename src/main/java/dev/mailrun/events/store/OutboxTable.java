package dev.mailrun.events.store;

import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/** The statements of {@code event_outbox}: events written, fanned out to endpoints, expired. */
public final class OutboxTable {

    /** Rows per INSERT: a flush of results is far below it; a larger batch is written in parts. */
    private static final int ROWS_PER_INSERT = 500;

    /** An event to write: {@code data} is its fields as a JSON object (null: none). */
    public record NewRow(String eventId, String type, Long campaignId, Long recipientId, String email, String data) {}

    /** An event not yet fanned out: its position and type. */
    public record Unfanned(long seq, String type) {}

    /** Writes {@code events} in the caller's transaction: one multi-row INSERT per 500 events. */
    public void insert(Connection c, Collection<NewRow> events, Instant now) throws SQLException {
        List<NewRow> all = new ArrayList<>(events);
        for (int from = 0; from < all.size(); from += ROWS_PER_INSERT) {
            List<NewRow> part = all.subList(from, Math.min(all.size(), from + ROWS_PER_INSERT));
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO event_outbox (event_id, type, campaign_id, recipient_id, email, occurred_at, data) VALUES "
                            + String.join(", ", Collections.nCopies(part.size(), "(?, ?, ?, ?, ?, ?, ?)")))) {
                int i = 1;
                for (NewRow e : part) {
                    ps.setString(i++, e.eventId());
                    ps.setString(i++, e.type());
                    ps.setObject(i++, e.campaignId());
                    ps.setObject(i++, e.recipientId());
                    ps.setString(i++, e.email());
                    SqlTime.set(ps, i++, now);
                    ps.setString(i++, e.data());
                }
                ps.executeUpdate();
            }
        }
    }

    /**
     * The oldest events whose deliveries are not made yet, in order, locked for the caller's
     * transaction: a second worker fanning out at the same moment waits, then reads past them, so
     * deliveries are made in the order of the events (skipping locked rows would let it make later
     * ones first).
     */
    public List<Unfanned> unfanned(Connection c, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT seq, type FROM event_outbox WHERE fanned_out = 0 ORDER BY seq LIMIT ? FOR UPDATE")) {
            ps.setInt(1, limit);
            return read(ps);
        }
    }

    /** Events that happened at or after {@code since}, after position {@code after}, in order: what a replay goes through. */
    public List<Unfanned> since(Connection c, Instant since, long after, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT seq, type FROM event_outbox WHERE occurred_at >= ? AND seq > ? ORDER BY seq LIMIT ?")) {
            SqlTime.set(ps, 1, since);
            ps.setLong(2, after);
            ps.setInt(3, limit);
            return read(ps);
        }
    }

    private static List<Unfanned> read(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            List<Unfanned> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(new Unfanned(rs.getLong(1), rs.getString(2)));
            }
            return rows;
        }
    }

    public void markFanned(Connection c, List<Long> seqs) throws SQLException {
        if (seqs.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE event_outbox SET fanned_out = 1 WHERE seq IN (" + Sql.placeholders(seqs.size()) + ")")) {
            int i = 1;
            for (long s : seqs) {
                ps.setLong(i++, s);
            }
            ps.executeUpdate();
        }
    }

    /**
     * Deletes up to {@code limit} events that happened before {@code before}, with their deliveries
     * (the foreign key cascades); returns how many, and before that how many of their deliveries
     * were still pending (the caller reports those: expired undelivered).
     */
    public long[] expire(Connection c, Instant before, int limit) throws SQLException {
        long pending;
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT COUNT(*) FROM event_delivery d JOIN (SELECT seq FROM event_outbox WHERE occurred_at < ?
                ORDER BY seq LIMIT ?) o ON o.seq = d.seq WHERE d.status = 'pending'""")) {
            SqlTime.set(ps, 1, before);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                pending = rs.getLong(1);
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "DELETE FROM event_outbox WHERE occurred_at < ? ORDER BY seq LIMIT ?")) {
            SqlTime.set(ps, 1, before);
            ps.setInt(2, limit);
            return new long[] {ps.executeUpdate(), pending};
        }
    }

    /**
     * An erasure: the events about the address (letter case ignored) keep their type, ids and time,
     * their address and fields removed. Reads the whole outbox: erasures are rare. Returns how many.
     */
    public int erase(Connection c, String emailKey) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE event_outbox SET email = NULL, data = NULL WHERE LOWER(email) = ?")) {
            ps.setString(1, emailKey);
            return ps.executeUpdate();
        }
    }
}
