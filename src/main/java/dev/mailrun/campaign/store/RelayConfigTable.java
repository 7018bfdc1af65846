package dev.mailrun.campaign.store;

import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The relay_worker_config table: each worker's settings of each relay it sends through (a
 * fingerprint and the readable, non-secret parts), renewed while the worker runs.
 */
public final class RelayConfigTable {

    /** One worker's settings of one relay, as last renewed. */
    public record Row(String relay, String worker, String fingerprint, String settings, Instant seenAt) {}

    /** Records {@code rows} as seen now: one batched upsert. */
    public void record(Connection c, Collection<Row> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        // No VALUES() in the update clause (deprecated on MySQL 8): each column is bound twice.
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO relay_worker_config (relay, worker, fingerprint, settings, seen_at) VALUES (?, ?, ?, ?, ?)
                ON DUPLICATE KEY UPDATE fingerprint = ?, settings = ?, seen_at = ?""")) {
            for (Row r : rows) {
                String settings = Sql.truncate(r.settings(), 500);
                ps.setString(1, r.relay());
                ps.setString(2, Sql.truncate(r.worker(), 255));
                ps.setString(3, r.fingerprint());
                ps.setString(4, settings);
                SqlTime.set(ps, 5, r.seenAt());
                ps.setString(6, r.fingerprint());
                ps.setString(7, settings);
                SqlTime.set(ps, 8, r.seenAt());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The rows renewed at {@code since} or later, by relay and worker. */
    public List<Row> seenSince(Connection c, Instant since) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT relay, worker, fingerprint, settings, seen_at FROM relay_worker_config
                WHERE seen_at >= ? ORDER BY relay, worker""")) {
            SqlTime.set(ps, 1, since);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Row(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), SqlTime.get(rs, 5)));
                }
            }
        }
        return rows;
    }
}
