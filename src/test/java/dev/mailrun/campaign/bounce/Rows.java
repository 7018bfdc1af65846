package dev.mailrun.campaign.bounce;

import dev.mailrun.testing.StatusCounts;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import javax.sql.DataSource;

/** Campaign and recipient rows written straight into the test database. */
public final class Rows {

    private static final Instant T0 = Instant.parse("2025-03-01T00:00:00Z");

    private final DataSource dataSource;

    public Rows(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public long campaign(String status) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                INSERT INTO campaign (name, template, from_address, status, created_at, updated_at)
                VALUES ('March news', 'news', 'news@example.com', ?, ?, ?)""", Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, status);
            SqlTime.set(ps, 2, T0);
            SqlTime.set(ps, 3, T0);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    public long recipient(long campaignId, String email, String status, String messageId) throws SQLException {
        return recipient(campaignId, email, status, messageId, null);
    }

    public long recipient(long campaignId, String email, String status, String messageId, Integer lastCode) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                INSERT INTO recipient (campaign_id, email, status, message_id, last_code, sent_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)""", Statement.RETURN_GENERATED_KEYS)) {
            ps.setLong(1, campaignId);
            ps.setString(2, email);
            ps.setString(3, status);
            ps.setString(4, messageId);
            if (lastCode == null) {
                ps.setNull(5, java.sql.Types.SMALLINT);
            } else {
                ps.setInt(5, lastCode);
            }
            SqlTime.set(ps, 6, status.equals("pending") ? null : T0);
            SqlTime.set(ps, 7, T0);
            ps.executeUpdate();
            StatusCounts.rebuild(c, campaignId);
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    public String string(String sql, Object... params) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    public int execute(String sql, Object... params) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            return ps.executeUpdate();
        }
    }

    public long count(String sql, Object... params) throws SQLException {
        String v = string(sql, params);
        return v == null ? 0 : Long.parseLong(v);
    }

    public void clear() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM feedback_event");
            s.execute("DELETE FROM bounce_event");
            s.execute("DELETE FROM soft_bounce");
            s.execute("DELETE FROM suppression");
            s.execute("DELETE FROM recipient");
            s.execute("DELETE FROM campaign");
        }
    }
}
