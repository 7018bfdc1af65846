package dev.mailrun.campaign.store;

import dev.mailrun.db.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * The pace_tail table: sends of the last second that another run must count, as ages on the
 * database clock — each paced name's sends in the last second of a run that just released its share,
 * for any next run (a tail), and a live holder's handover to a run joining its share: the sends its
 * lowered pace no longer holds, for that joiner alone.
 */
public final class PaceTailTable {

    /** At most this many ages are kept per row: a cap above it is not paced within a second anyway. */
    static final int MAX_AGES = 1000;

    /** Writes what {@code holder} sent to each name in its last second (ages in milliseconds before now). */
    public void write(Connection c, String holder, Map<String, long[]> agesMillis) throws SQLException {
        deleteOld(c);
        if (agesMillis.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO pace_tail (name, holder, ages_ms, written_at) VALUES (?, ?, ?, UTC_TIMESTAMP(3))
                ON DUPLICATE KEY UPDATE ages_ms = ?, written_at = UTC_TIMESTAMP(3)""")) {
            for (Map.Entry<String, long[]> e : agesMillis.entrySet()) {
                String ages = joined(e.getValue());
                ps.setString(1, e.getKey());
                ps.setString(2, holder);
                ps.setString(3, ages);
                ps.setString(4, ages);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * The sends to each of {@code names} within the last {@code withinMillis}, by any holder but
     * {@code self}, as ages in milliseconds before now (database clock) — but for the tails the other
     * live holders counted: per name, {@code countedBy} holds when the earliest of them joined
     * ({@link RelayShareTable#othersJoined}), and a tail written before that is theirs. Counting it
     * here as well would count it twice, once in their windows (and in their handovers) and once in
     * this run's, and hold this run's share back for nothing.
     */
    public Map<String, long[]> read(Connection c, Collection<String> names, String self, long withinMillis,
                                    Map<String, Optional<LocalDateTime>> countedBy) throws SQLException {
        Map<String, List<Long>> found = new HashMap<>();
        if (names.isEmpty()) {
            return Map.of();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT name, ages_ms, TIMESTAMPDIFF(MICROSECOND, written_at, UTC_TIMESTAMP(3)) DIV 1000, written_at
                FROM pace_tail
                WHERE joiner = '' AND holder <> ? AND written_at >= UTC_TIMESTAMP(3) - INTERVAL ? MICROSECOND AND name IN ("""
                + Sql.placeholders(names.size()) + ")")) {
            int i = 1;
            ps.setString(i++, self);
            ps.setLong(i++, withinMillis * 1000);
            for (String n : names) {
                ps.setString(i++, n);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Optional<LocalDateTime> counted = countedBy.getOrDefault(rs.getString(1), Optional.empty());
                    // Strictly before: a tail written in the millisecond a holder joined may not have been visible to it.
                    if (counted.isPresent() && rs.getObject(4, LocalDateTime.class).isBefore(counted.get())) {
                        continue;
                    }
                    aged(rs.getString(2), rs.getLong(3), withinMillis,
                            found.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()));
                }
            }
        }
        Map<String, long[]> result = new HashMap<>();
        found.forEach((name, ages) -> result.put(name, ages.stream().mapToLong(Long::longValue).toArray()));
        return result;
    }

    /**
     * One name's handover from {@code holder} to a run joining its share: the holder's sends of the
     * last second (ages in milliseconds before now) that its lowered pace no longer holds.
     */
    public record Handover(String name, String joiner, long[] agesMillis) {}

    /** Writes {@code holder}'s handovers, in one batch whatever their number. */
    public void handOver(Connection c, String holder, List<Handover> handovers) throws SQLException {
        if (handovers.isEmpty()) {
            return;
        }
        deleteOld(c);
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO pace_tail (name, holder, joiner, ages_ms, written_at) VALUES (?, ?, ?, ?, UTC_TIMESTAMP(3))
                ON DUPLICATE KEY UPDATE ages_ms = ?, written_at = UTC_TIMESTAMP(3)""")) {
            for (Handover h : handovers) {
                if (h.joiner().isEmpty()) {
                    throw new IllegalArgumentException("a handover names its joiner");
                }
                String ages = joined(h.agesMillis());
                ps.setString(1, h.name());
                ps.setString(2, holder);
                ps.setString(3, h.joiner());
                ps.setString(4, ages);
                ps.setString(5, ages);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * The handovers to {@code joiner} on {@code names}: name → handing holder → its sends within the
     * last {@code withinMillis}, as ages in milliseconds before now (database clock). A holder that
     * handed over nothing to count is there with no ages.
     */
    public Map<String, Map<String, long[]>> handedOver(Connection c, String joiner, Collection<String> names,
                                                       long withinMillis) throws SQLException {
        Map<String, Map<String, long[]>> result = new HashMap<>();
        if (names.isEmpty()) {
            return result;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT name, holder, ages_ms, TIMESTAMPDIFF(MICROSECOND, written_at, UTC_TIMESTAMP(3)) DIV 1000
                FROM pace_tail WHERE joiner = ? AND name IN (""" + Sql.placeholders(names.size()) + ")")) {
            int i = 1;
            ps.setString(i++, joiner);
            for (String n : names) {
                ps.setString(i++, n);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<Long> ages = new ArrayList<>();
                    aged(rs.getString(3), rs.getLong(4), withinMillis, ages);
                    result.computeIfAbsent(rs.getString(1), k -> new HashMap<>())
                            .put(rs.getString(2), ages.stream().mapToLong(Long::longValue).toArray());
                }
            }
        }
        return result;
    }

    /** Deletes the handovers to {@code joiner}, once it has counted them. */
    public void deleteHandovers(Connection c, String joiner) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM pace_tail WHERE joiner = ?")) {
            ps.setString(1, joiner);
            ps.executeUpdate();
        }
    }

    private static void deleteOld(Connection c) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement(
                "DELETE FROM pace_tail WHERE written_at < UTC_TIMESTAMP(3) - INTERVAL 1 MINUTE")) {
            delete.executeUpdate();
        }
    }

    private static String joined(long[] agesMillis) {
        StringJoiner ages = new StringJoiner(",");
        for (int i = 0; i < Math.min(agesMillis.length, MAX_AGES); i++) {
            ages.add(Long.toString(Math.max(0, agesMillis[i])));
        }
        return ages.toString();
    }

    /**
     * Adds each age of {@code stored} (milliseconds before a write {@code since} ms ago) still within
     * the window. The write and the read are each stamped to the millisecond, cut short, so
     * {@code since} may be up to a millisecond more than went by: one less is counted, never more.
     */
    private static void aged(String stored, long since, long withinMillis, List<Long> into) {
        for (String part : stored.split(",")) {
            if (!part.isEmpty()) {
                long age = Long.parseLong(part) + Math.max(0, since - 1);
                if (age < withinMillis) {
                    into.add(age);
                }
            }
        }
    }
}
