package dev.mailrun.campaign.store.audience;

import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The segment table: saved filters by name (unique whatever the letter case). */
public final class SegmentTable {

    private static final String COLUMNS = "id, name, filter, created_at, updated_at";

    /** A segment as stored; {@code filter} the JSON as written (compact, already checked). */
    public record Stored(long id, String name, String filter, Instant createdAt, Instant updatedAt) {}

    /** Inserts a segment; returns its id. A name taken (in any case) fails with the unique key's error. */
    public long insert(Connection c, String name, String filter, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO segment (name, filter, created_at, updated_at) VALUES (?, ?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, name);
            ps.setString(2, filter);
            SqlTime.set(ps, 3, now);
            SqlTime.set(ps, 4, now);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    /** The segment named {@code name}, letter case ignored. */
    public Optional<Stored> find(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM segment WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    /** The segment named {@code name}, read under a shared lock until the transaction ends (held against a delete). */
    public Optional<Stored> lockShared(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM segment WHERE name = ? LOCK IN SHARE MODE")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    /** Every segment, by name. */
    public List<Stored> all(Connection c) throws SQLException {
        List<Stored> segments = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM segment ORDER BY name, id");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                segments.add(row(rs));
            }
        }
        return segments;
    }

    /** Replaces the name and filter; false when there is no segment {@code id}. */
    public boolean update(Connection c, long id, String name, String filter, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE segment SET name = ?, filter = ?, updated_at = ? WHERE id = ?")) {
            ps.setString(1, name);
            ps.setString(2, filter);
            SqlTime.set(ps, 3, now);
            ps.setLong(4, id);
            return ps.executeUpdate() == 1;
        }
    }

    /** Deletes the segment; false when there was none. */
    public boolean delete(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM segment WHERE id = ?")) {
            ps.setLong(1, id);
            return ps.executeUpdate() == 1;
        }
    }

    private static Stored row(ResultSet rs) throws SQLException {
        return new Stored(rs.getLong("id"), rs.getString("name"), rs.getString("filter"),
                SqlTime.get(rs, "created_at"), SqlTime.get(rs, "updated_at"));
    }
}
