package dev.mailrun.campaign.store;

import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The suppression table: addresses never to be mailed again, by any campaign. */
public final class SuppressionTable {

    public record Entry(String address, SuppressionReason reason, String source) {}

    /** Adds entries; an address already suppressed keeps its first reason. Returns how many were new. */
    public int add(Connection c, Collection<Entry> entries, Instant now) throws SQLException {
        if (entries.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT IGNORE INTO suppression (address, reason, source, created_at) VALUES (?, ?, ?, ?)""")) {
            for (Entry e : entries) {
                ps.setString(1, e.address());
                ps.setString(2, e.reason().dbValue());
                ps.setString(3, truncate(e.source(), 500));
                SqlTime.set(ps, 4, now);
                ps.addBatch();
            }
            int added = 0;
            for (int n : ps.executeBatch()) {
                added += n > 0 ? 1 : 0;
            }
            return added;
        }
    }

    /** Which of these suppression keys are suppressed: one statement for the whole set. */
    public Set<String> suppressedAmong(Connection c, Collection<String> keys) throws SQLException {
        Set<String> found = new HashSet<>();
        if (keys.isEmpty()) {
            return found;
        }
        List<String> list = List.copyOf(keys);
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT address FROM suppression WHERE address IN (" + Sql.placeholders(list.size()) + ")")) {
            for (int i = 0; i < list.size(); i++) {
                ps.setString(i + 1, list.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getString(1));
                }
            }
        }
        return found;
    }

    public boolean isSuppressed(Connection c, String key) throws SQLException {
        return suppressedAmong(c, List.of(key)).contains(key);
    }

    static String truncate(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }
}
