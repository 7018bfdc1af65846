package dev.mailrun.campaign.store;

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

/** The template and template_version tables: stored templates and their immutable versions. */
public final class TemplateTable {

    /** A stored template: its name and latest version. */
    public record Stored(long id, String name, int latestVersion, Instant createdAt, Instant updatedAt) {}

    /** One version's text and who saved it. */
    public record Version(String name, int version, String subject, String text, String html, Optional<String> properties,
                          String digest, String savedBy, Instant savedAt) {}

    /** The template named {@code name}, its row locked for this transaction (a save's next version number). */
    public Optional<Stored> lock(Connection c, String name) throws SQLException {
        return one(c, "SELECT id, name, latest_version, created_at, updated_at FROM template WHERE name = ? FOR UPDATE", name);
    }

    public Optional<Stored> find(Connection c, String name) throws SQLException {
        return one(c, "SELECT id, name, latest_version, created_at, updated_at FROM template WHERE name = ?", name);
    }

    /**
     * Creates the template's row at version 0, or leaves an existing one: two first saves of one
     * name at once then both lock the same row.
     */
    public void create(Connection c, String name, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT IGNORE INTO template (name, latest_version, created_at, updated_at) VALUES (?, 0, ?, ?)""",
                Statement.NO_GENERATED_KEYS)) {
            ps.setString(1, name);
            SqlTime.set(ps, 2, now);
            SqlTime.set(ps, 3, now);
            ps.executeUpdate();
        }
    }

    /** Adds version {@code v.version()} of the locked template and makes it the latest. */
    public void addVersion(Connection c, long templateId, Version v) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO template_version (template_id, version, subject, body_text, body_html, properties, digest,
                    saved_by, saved_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            ps.setLong(1, templateId);
            ps.setInt(2, v.version());
            ps.setString(3, v.subject());
            ps.setString(4, v.text());
            ps.setString(5, v.html());
            ps.setString(6, v.properties().orElse(null));
            ps.setString(7, v.digest());
            ps.setString(8, v.savedBy());
            SqlTime.set(ps, 9, v.savedAt());
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE template SET latest_version = ?, updated_at = ? WHERE id = ?")) {
            ps.setInt(1, v.version());
            SqlTime.set(ps, 2, v.savedAt());
            ps.setLong(3, templateId);
            ps.executeUpdate();
        }
    }

    /**
     * Deletes version {@code version} of the locked template; the latest becomes the highest left, and a
     * template with no version left is deleted.
     *
     * @return whether there was such a version
     */
    public boolean deleteVersion(Connection c, long templateId, int version, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM template_version WHERE template_id = ? AND version = ?")) {
            ps.setLong(1, templateId);
            ps.setInt(2, version);
            if (ps.executeUpdate() == 0) {
                return false;
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE template SET updated_at = ?,
                    latest_version = COALESCE((SELECT MAX(version) FROM template_version WHERE template_id = ?), 0)
                WHERE id = ?""")) {
            SqlTime.set(ps, 1, now);
            ps.setLong(2, templateId);
            ps.setLong(3, templateId);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM template WHERE id = ? AND latest_version = 0")) {
            ps.setLong(1, templateId);
            ps.executeUpdate();
        }
        return true;
    }

    /** Every stored template, by name. */
    public List<Stored> list(Connection c) throws SQLException {
        List<Stored> all = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, name, latest_version, created_at, updated_at FROM template WHERE latest_version > 0 ORDER BY name");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                all.add(stored(rs));
            }
        }
        return all;
    }

    /** Version {@code version} of {@code name}; the latest when {@code version} is empty. */
    public Optional<Version> version(Connection c, String name, Optional<Integer> version) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT t.name, v.version, v.subject, v.body_text, v.body_html, v.properties, v.digest, v.saved_by, v.saved_at
                FROM template t JOIN template_version v ON v.template_id = t.id
                WHERE t.name = ? AND v.version = COALESCE(?, t.latest_version)""")) {
            ps.setString(1, name);
            ps.setObject(2, version.orElse(null));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(version(rs)) : Optional.empty();
            }
        }
    }

    /** The versions of {@code name}, newest first, without their text (subject only). */
    public List<Version> versions(Connection c, String name) throws SQLException {
        List<Version> all = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT t.name, v.version, v.subject, '' AS body_text, '' AS body_html, NULL AS properties, v.digest,
                    v.saved_by, v.saved_at
                FROM template t JOIN template_version v ON v.template_id = t.id
                WHERE t.name = ? ORDER BY v.version DESC""")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    all.add(version(rs));
                }
            }
        }
        return all;
    }

    private static Optional<Stored> one(Connection c, String sql, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(stored(rs)) : Optional.empty();
            }
        }
    }

    private static Stored stored(ResultSet rs) throws SQLException {
        return new Stored(rs.getLong("id"), rs.getString("name"), rs.getInt("latest_version"),
                SqlTime.get(rs, "created_at"), SqlTime.get(rs, "updated_at"));
    }

    private static Version version(ResultSet rs) throws SQLException {
        return new Version(rs.getString("name"), rs.getInt("version"), rs.getString("subject"), rs.getString("body_text"),
                rs.getString("body_html"), Optional.ofNullable(rs.getString("properties")), rs.getString("digest"),
                rs.getString("saved_by"), SqlTime.get(rs, "saved_at"));
    }
}
