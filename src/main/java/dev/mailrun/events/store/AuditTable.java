package dev.mailrun.events.store;

import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;

/** The statements of {@code event_audit}: what operators did to deliveries, by whom and why. */
public final class AuditTable {

    public record Entry(String action, String endpoint, long affected, String actor, String why, String detail) {}

    public void record(Connection c, Entry e, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO event_audit (at, action, endpoint, affected, actor, why, detail) VALUES (?, ?, ?, ?, ?, ?, ?)""")) {
            SqlTime.set(ps, 1, now);
            ps.setString(2, e.action());
            ps.setString(3, e.endpoint());
            ps.setLong(4, e.affected());
            ps.setString(5, Sql.truncate(e.actor(), 200));
            ps.setString(6, Sql.truncate(e.why(), 1000));
            ps.setString(7, Sql.truncate(e.detail(), 1000));
            ps.executeUpdate();
        }
    }
}
