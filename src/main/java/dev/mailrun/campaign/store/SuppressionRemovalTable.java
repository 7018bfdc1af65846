package dev.mailrun.campaign.store;

import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/** The suppression_removal table: the audit trail of addresses taken off the suppression list. Insert-only. */
public final class SuppressionRemovalTable {

    /** One removal: the suppression it undid, why, by whom and when. */
    public record Removal(SuppressionTable.Stored removed, String why, String removedBy, Instant removedAt) {}

    public void record(Connection c, Removal r) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO suppression_removal (address, reason, source, suppressed_at, why, removed_by, removed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)""")) {
            ps.setString(1, r.removed().address());
            ps.setString(2, r.removed().reason());
            ps.setString(3, r.removed().source());
            SqlTime.set(ps, 4, r.removed().createdAt());
            ps.setString(5, r.why());
            ps.setString(6, Sql.truncate(r.removedBy(), 255));
            SqlTime.set(ps, 7, r.removedAt());
            ps.executeUpdate();
        }
    }

    /** The most recent removal of this suppression key, if it was ever removed. */
    public Optional<Removal> latest(Connection c, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT address, reason, source, suppressed_at, why, removed_by, removed_at FROM suppression_removal
                WHERE address = ? ORDER BY removed_at DESC, id DESC LIMIT 1""")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                SuppressionTable.Stored removed = new SuppressionTable.Stored(rs.getString(1), rs.getString(2),
                        rs.getString(3), SqlTime.get(rs, 4));
                return Optional.of(new Removal(removed, rs.getString(5), rs.getString(6), SqlTime.get(rs, 7)));
            }
        }
    }

    /** An erasure (docs/ERASURE.md): the address's removals deleted with it. */
    public void erase(Connection c, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM suppression_removal WHERE address = ?")) {
            ps.setString(1, key);
            ps.executeUpdate();
        }
    }
}
