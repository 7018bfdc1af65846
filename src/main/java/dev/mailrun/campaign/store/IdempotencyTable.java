package dev.mailrun.campaign.store;

import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/** The api_idempotency table: a POST's idempotency key, the request it came with and, once done, its answer. */
public final class IdempotencyTable {

    /** A key's row; {@code status} empty while the request is under way. */
    public record Stored(byte[] requestSha256, Instant createdAt, Optional<Integer> status, String contentType, String headers,
                         byte[] body) {}

    /** Claims the key for a request; false when the key has a row already. */
    public boolean claim(Connection c, String token, String key, byte[] requestSha256, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT IGNORE INTO api_idempotency (token_name, idem_key, request_sha256, created_at) VALUES (?, ?, ?, ?)""")) {
            ps.setString(1, token);
            ps.setString(2, key);
            ps.setBytes(3, requestSha256);
            SqlTime.set(ps, 4, now);
            return ps.executeUpdate() == 1;
        }
    }

    public Optional<Stored> find(Connection c, String token, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT request_sha256, created_at, status, content_type, headers, body FROM api_idempotency
                WHERE token_name = ? AND idem_key = ?""")) {
            ps.setString(1, token);
            ps.setString(2, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                int status = rs.getInt(3);
                // wasNull speaks of the column read last: ask it before reading another.
                Optional<Integer> answered = rs.wasNull() ? Optional.empty() : Optional.of(status);
                return Optional.of(new Stored(rs.getBytes(1), SqlTime.get(rs, 2), answered,
                        rs.getString(4), rs.getString(5), rs.getBytes(6)));
            }
        }
    }

    public void complete(Connection c, String token, String key, int status, String contentType, String headers, byte[] body)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE api_idempotency SET status = ?, content_type = ?, headers = ?, body = ? WHERE token_name = ? AND idem_key = ?""")) {
            ps.setInt(1, status);
            ps.setString(2, contentType);
            ps.setString(3, headers);
            ps.setBytes(4, body);
            ps.setString(5, token);
            ps.setString(6, key);
            ps.executeUpdate();
        }
    }

    public void delete(Connection c, String token, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM api_idempotency WHERE token_name = ? AND idem_key = ?")) {
            ps.setString(1, token);
            ps.setString(2, key);
            ps.executeUpdate();
        }
    }

    /** Deletes up to {@code limit} keys created before {@code before}; a few per claim keep the table small. */
    public int purge(Connection c, Instant before, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM api_idempotency WHERE created_at < ? LIMIT ?")) {
            SqlTime.set(ps, 1, before);
            ps.setInt(2, limit);
            return ps.executeUpdate();
        }
    }

    /**
     * An erasure (docs/ERASURE.md): stored answers (kept 24 hours) naming the address, letter case
     * ignored, deleted; a retry of one is then carried out again.
     */
    public void erase(Connection c, String emailKey) throws SQLException {
        String like = "%" + emailKey.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%";
        try (PreparedStatement ps = c.prepareStatement(
                "DELETE FROM api_idempotency WHERE LOWER(CONVERT(body USING utf8mb4)) LIKE ? ESCAPE '!'")) {
            ps.setString(1, like);
            ps.executeUpdate();
        }
    }
}
