package dev.mailrun.campaign.store.audience;

import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
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

/** The subscriber_list table: lists by name (unique whatever the letter case). */
public final class SubscriberListTable {

    private static final String COLUMNS = "id, name, description, visibility, optin, created_at, updated_at";

    /** A list as stored. */
    public record Stored(long id, String name, Optional<String> description, ListVisibility visibility, ListOptIn optIn,
                         Instant createdAt, Instant updatedAt) {}

    /** What a list is made of besides its id and times. */
    public record Values(String name, Optional<String> description, ListVisibility visibility, ListOptIn optIn) {}

    /** Inserts a list; returns its id. A name taken (in any case) fails with the unique key's error. */
    public long insert(Connection c, Values v, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO subscriber_list (name, description, visibility, optin, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)""", Statement.RETURN_GENERATED_KEYS)) {
            bind(ps, v);
            SqlTime.set(ps, 5, now);
            SqlTime.set(ps, 6, now);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    /** The list named {@code name}, letter case ignored. */
    public Optional<Stored> find(Connection c, String name) throws SQLException {
        return one(c, "SELECT " + COLUMNS + " FROM subscriber_list WHERE name = ?", name);
    }

    /**
     * The list named {@code name}, read under a shared lock until the transaction ends: an import's
     * batch or an upsert subscribing people to it holds it against a delete meanwhile.
     */
    public Optional<Stored> lockShared(Connection c, String name) throws SQLException {
        return one(c, "SELECT " + COLUMNS + " FROM subscriber_list WHERE name = ? LOCK IN SHARE MODE", name);
    }

    /** The list {@code id}, read under a shared lock until the transaction ends (an import's batch: held against a delete). */
    public Optional<Stored> lockShared(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM subscriber_list WHERE id = ? LOCK IN SHARE MODE")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    /** Every list, by name. */
    public List<Stored> all(Connection c) throws SQLException {
        List<Stored> lists = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM subscriber_list ORDER BY name, id");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                lists.add(row(rs));
            }
        }
        return lists;
    }

    /** Replaces the list's values; false when there is no list {@code id}. */
    public boolean update(Connection c, long id, Values v, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE subscriber_list SET name = ?, description = ?, visibility = ?, optin = ?, updated_at = ? WHERE id = ?""")) {
            bind(ps, v);
            SqlTime.set(ps, 5, now);
            ps.setLong(6, id);
            return ps.executeUpdate() == 1;
        }
    }

    /** Deletes the list, its subscriptions with it (ON DELETE CASCADE); false when there was none. */
    public boolean delete(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM subscriber_list WHERE id = ?")) {
            ps.setLong(1, id);
            return ps.executeUpdate() == 1;
        }
    }

    private static void bind(PreparedStatement ps, Values v) throws SQLException {
        ps.setString(1, v.name());
        ps.setString(2, v.description().orElse(null));
        ps.setString(3, v.visibility().dbValue());
        ps.setString(4, v.optIn().dbValue());
    }

    private static Optional<Stored> one(Connection c, String sql, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    private static Stored row(ResultSet rs) throws SQLException {
        return new Stored(rs.getLong("id"), rs.getString("name"), Optional.ofNullable(rs.getString("description")),
                ListVisibility.fromDb(rs.getString("visibility")), ListOptIn.fromDb(rs.getString("optin")),
                SqlTime.get(rs, "created_at"), SqlTime.get(rs, "updated_at"));
    }
}
