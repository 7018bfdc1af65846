package dev.mailrun.campaign.store;

import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The api_token table: API tokens by name, each stored only as the SHA-256 of the token. */
public final class ApiTokenTable {

    /** One token's row; never the token itself. */
    public record Stored(long id, String name, byte[] sha256, String scopes, Instant createdAt,
                         Optional<Instant> lastUsedAt, Optional<Instant> revokedAt) {}

    private static final String COLUMNS = "id, name, token_sha256, scopes, created_at, last_used_at, revoked_at";

    /** @return false when the name is taken (by a live or a revoked token) */
    public boolean insert(Connection c, String name, byte[] sha256, String scopes, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO api_token (name, token_sha256, scopes, created_at) VALUES (?, ?, ?, ?)")) {
            ps.setString(1, name);
            ps.setBytes(2, sha256);
            ps.setString(3, scopes);
            SqlTime.set(ps, 4, now);
            ps.executeUpdate();
            return true;
        } catch (SQLIntegrityConstraintViolationException duplicate) {
            return false;
        }
    }

    public List<Stored> list(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM api_token ORDER BY name");
             ResultSet rs = ps.executeQuery()) {
            List<Stored> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(row(rs));
            }
            return rows;
        }
    }

    public Optional<Stored> bySha256(Connection c, byte[] sha256) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM api_token WHERE token_sha256 = ?")) {
            ps.setBytes(1, sha256);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    public Optional<Stored> byName(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM api_token WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    /** @return false when there is no live token of that name */
    public boolean revoke(Connection c, String name, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE api_token SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL")) {
            SqlTime.set(ps, 1, now);
            ps.setString(2, name);
            return ps.executeUpdate() == 1;
        }
    }

    /** Notes a use, unless one was noted since {@code notBefore}: at most one write per token per interval. */
    public void touch(Connection c, long id, Instant now, Instant notBefore) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE api_token SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)")) {
            SqlTime.set(ps, 1, now);
            ps.setLong(2, id);
            SqlTime.set(ps, 3, notBefore);
            ps.executeUpdate();
        }
    }

    private static Stored row(ResultSet rs) throws SQLException {
        return new Stored(rs.getLong(1), rs.getString(2), rs.getBytes(3), rs.getString(4), SqlTime.get(rs, 5),
                Optional.ofNullable(SqlTime.get(rs, 6)), Optional.ofNullable(SqlTime.get(rs, 7)));
    }
}
