package dev.mailrun.campaign.store;

import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * The message_source table: a campaign's own message as it was written — layout, subject, body format
 * ({@code markdown} or {@code html}), body and the text part when one was given — kept with the template
 * version it was composed into. A row goes with its version (the foreign key cascades).
 */
public final class MessageSourceTable {

    /** What was written, by whom and when. {@code text} empty: the text part was read out of the body. */
    public record Row(String layout, String subject, String format, String body, Optional<String> text, String by,
                      Instant at) {}

    /**
     * Keeps {@code row} as what was written for version {@code version} of the template {@code templateId},
     * replacing what an earlier writing of the same composed text kept.
     */
    public void put(Connection c, long templateId, int version, Row row) throws SQLException {
        // Each value bound twice rather than VALUES(col): MySQL 8.0.20 deprecates VALUES() in this clause.
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO message_source (template_id, version, layout, subject, format, body, body_text, written_by, written_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON DUPLICATE KEY UPDATE layout = ?, subject = ?, format = ?, body = ?, body_text = ?, written_by = ?,
                                        written_at = ?""")) {
            ps.setLong(1, templateId);
            ps.setInt(2, version);
            bind(ps, 3, row);
            bind(ps, 10, row);
            ps.executeUpdate();
        }
    }

    private static void bind(PreparedStatement ps, int first, Row row) throws SQLException {
        ps.setString(first, row.layout());
        ps.setString(first + 1, row.subject());
        ps.setString(first + 2, row.format());
        ps.setString(first + 3, row.body());
        ps.setString(first + 4, row.text().orElse(null));
        ps.setString(first + 5, row.by());
        SqlTime.set(ps, first + 6, row.at());
    }

    /** What was written for version {@code version} of the template named {@code template}; empty when nothing was kept. */
    public Optional<Row> find(Connection c, String template, int version) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT s.layout, s.subject, s.format, s.body, s.body_text, s.written_by, s.written_at
                FROM message_source s JOIN template t ON t.id = s.template_id
                WHERE t.name = ? AND s.version = ?""")) {
            ps.setString(1, template);
            ps.setInt(2, version);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Row(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        Optional.ofNullable(rs.getString(5)), rs.getString(6), SqlTime.get(rs, "written_at")));
            }
        }
    }
}
