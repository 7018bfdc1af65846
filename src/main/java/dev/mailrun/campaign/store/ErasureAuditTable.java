package dev.mailrun.campaign.store;

import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The erasure_audit table: every erasure, who asked and what it removed; never the address. Only ever inserted. */
public final class ErasureAuditTable {

    /** One erasure as recorded. */
    public record Entry(Instant at, String via, String actor, Optional<Long> subscriberId, int recipients, int tracking) {}

    public void insert(Connection c, Entry e) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO erasure_audit (at, via, actor, subscriber_id, recipients, tracking) VALUES (?, ?, ?, ?, ?, ?)""")) {
            SqlTime.set(ps, 1, e.at());
            ps.setString(2, e.via());
            ps.setString(3, e.actor().length() > 200 ? e.actor().substring(0, 200) : e.actor());
            ps.setObject(4, e.subscriberId().orElse(null));
            ps.setInt(5, e.recipients());
            ps.setInt(6, e.tracking());
            ps.executeUpdate();
        }
    }

    /** The {@code limit} newest erasures, newest first. */
    public List<Entry> newest(Connection c, int limit) throws SQLException {
        List<Entry> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT at, via, actor, subscriber_id, recipients, tracking FROM erasure_audit ORDER BY id DESC LIMIT ?")) {
            ps.setInt(1, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long id = rs.getLong(4);
                    rows.add(new Entry(SqlTime.get(rs, 1), rs.getString(2), rs.getString(3),
                            rs.wasNull() ? Optional.empty() : Optional.of(id), rs.getInt(5), rs.getInt(6)));
                }
            }
        }
        return rows;
    }
}
