package dev.mailrun.campaign.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The pace_tail table: each paced name's sends in the last second of a run that just released its
 * share, as ages on the database clock, for the next run to count them.
 */
public final class PaceTailTable {

    /** At most this many ages are kept per row: a cap above it is not paced within a second anyway. */
    static final int MAX_AGES = 1000;

    /** Writes what {@code holder} sent to each name in its last second (ages in milliseconds before now). */
    public void write(Connection c, String holder, Map<String, long[]> agesMillis) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement(
                "DELETE FROM pace_tail WHERE written_at < UTC_TIMESTAMP(3) - INTERVAL 1 MINUTE")) {
            delete.executeUpdate();
        }
        if (agesMillis.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO pace_tail (name, holder, ages_ms, written_at) VALUES (?, ?, ?, UTC_TIMESTAMP(3))
                ON DUPLICATE KEY UPDATE ages_ms = ?, written_at = UTC_TIMESTAMP(3)""")) {
            for (Map.Entry<String, long[]> e : agesMillis.entrySet()) {
                StringJoiner ages = new StringJoiner(",");
                long[] a = e.getValue();
                for (int i = 0; i < Math.min(a.length, MAX_AGES); i++) {
                    ages.add(Long.toString(Math.max(0, a[i])));
                }
                ps.setString(1, e.getKey());
                ps.setString(2, holder);
                ps.setString(3, ages.toString());
                ps.setString(4, ages.toString());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * The sends to each of {@code names} within the last {@code withinMillis}, by any holder but
     * {@code self}, as ages in milliseconds before now (database clock).
     */
    public Map<String, long[]> read(Connection c, Collection<String> names, String self, long withinMillis)
            throws SQLException {
        Map<String, List<Long>> found = new HashMap<>();
        if (names.isEmpty()) {
            return Map.of();
        }
        StringJoiner in = new StringJoiner(",", "(", ")");
        names.forEach(n -> in.add("?"));
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT name, ages_ms, TIMESTAMPDIFF(MICROSECOND, written_at, UTC_TIMESTAMP(3)) DIV 1000
                FROM pace_tail
                WHERE holder <> ? AND written_at >= UTC_TIMESTAMP(3) - INTERVAL ? MICROSECOND AND name IN """ + in)) {
            int i = 1;
            ps.setString(i++, self);
            ps.setLong(i++, withinMillis * 1000);
            for (String n : names) {
                ps.setString(i++, n);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long since = Math.max(0, rs.getLong(3));
                    List<Long> ages = found.computeIfAbsent(rs.getString(1), k -> new ArrayList<>());
                    for (String part : rs.getString(2).split(",")) {
                        if (!part.isEmpty()) {
                            long age = Long.parseLong(part) + since;
                            if (age < withinMillis) {
                                ages.add(age);
                            }
                        }
                    }
                }
            }
        }
        Map<String, long[]> result = new HashMap<>();
        found.forEach((name, ages) -> result.put(name, ages.stream().mapToLong(Long::longValue).toArray()));
        return result;
    }
}
