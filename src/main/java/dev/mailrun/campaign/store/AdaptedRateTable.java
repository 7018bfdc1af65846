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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The adapted_rate table: rates lowered because the relay or a domain answered "too fast", shared by
 * every worker. A row exists only while a rate is below its configured value; the sending task
 * decides how much to lower and raise it, this class only keeps it consistent between workers.
 */
public final class AdaptedRateTable {

    /** One adapted rate. */
    public record Adapted(String name, double rate, Instant decreasedAt, Instant increasedAt, int decreases,
                          String reason) {}

    /** The rows among {@code names}, by name. */
    public Map<String, Adapted> read(Connection c, Collection<String> names) throws SQLException {
        Map<String, Adapted> found = new HashMap<>();
        if (names.isEmpty()) {
            return found;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT name, rate, decreased_at, increased_at, decreases, reason "
                + "FROM adapted_rate WHERE name IN (" + Sql.placeholders(names.size()) + ")")) {
            int i = 1;
            for (String n : names) {
                ps.setString(i++, n);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Adapted a = row(rs);
                    found.put(a.name(), a);
                }
            }
        }
        return found;
    }

    /** Every adapted rate, for status. */
    public List<Adapted> all(Connection c) throws SQLException {
        List<Adapted> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT name, rate, decreased_at, increased_at, decreases, reason FROM adapted_rate ORDER BY name");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(row(rs));
            }
        }
        return rows;
    }

    /** The row of {@code name}, locked until the caller's transaction ends. */
    Optional<Adapted> lock(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT name, rate, decreased_at, increased_at, decreases, reason "
                + "FROM adapted_rate WHERE name = ? FOR UPDATE")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    /**
     * Halves the rate of {@code name} (from {@code configured} when it is not adapted yet), never
     * below {@code floor} — unless it was already halved less than {@code guard} ago: the replies
     * to messages in flight, from every worker, tell of one excess, and it counts once. False then.
     */
    public boolean halve(Connection c, String name, double configured, double floor, java.time.Duration guard,
                         Instant now, String reason) throws SQLException {
        Optional<Adapted> row = lock(c, name);
        if (row.isPresent() && now.isBefore(row.get().decreasedAt().plus(guard))) {
            return false;
        }
        double from = row.map(Adapted::rate).orElse(configured);
        lower(c, name, Math.max(floor, from / 2), now, row.map(Adapted::decreases).orElse(0) + 1, reason);
        return true;
    }

    /** Writes a lowered rate (a halving), inserting the row if the rate was not adapted yet. */
    void lower(Connection c, String name, double rate, Instant now, int decreases, String reason) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO adapted_rate (name, rate, decreased_at, increased_at, decreases, reason)
                VALUES (?, ?, ?, ?, ?, ?)
                ON DUPLICATE KEY UPDATE rate = ?, decreased_at = ?, increased_at = ?, decreases = ?, reason = ?""")) {
            // The bound values repeated, not VALUES(col): deprecated in MySQL 8.0.20, and the row
            // alias that replaces it is unknown to MariaDB.
            ps.setString(1, name);
            for (int offset : new int[] {1, 6}) {
                ps.setDouble(offset + 1, rate);
                SqlTime.set(ps, offset + 2, now);
                SqlTime.set(ps, offset + 3, now);
                ps.setInt(offset + 4, decreases);
                ps.setString(offset + 5, Sql.truncate(reason, 500));
            }
            ps.executeUpdate();
        }
    }

    /**
     * Steps a rate up from {@code seen} to {@code next}, unless another worker changed it since it
     * was read (the row count says who won); a rate back at its configured value loses its row.
     */
    public boolean raise(Connection c, Adapted seen, double next, boolean recovered, Instant now) throws SQLException {
        String sql = recovered
                ? "DELETE FROM adapted_rate WHERE name = ? AND rate = ? AND increased_at = ?"
                : "UPDATE adapted_rate SET rate = ?, increased_at = ? WHERE name = ? AND rate = ? AND increased_at = ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            if (!recovered) {
                ps.setDouble(i++, next);
                SqlTime.set(ps, i++, now);
            }
            ps.setString(i++, seen.name());
            ps.setDouble(i++, seen.rate());
            SqlTime.set(ps, i, seen.increasedAt());
            return ps.executeUpdate() == 1;
        }
    }

    private static Adapted row(ResultSet rs) throws SQLException {
        return new Adapted(rs.getString(1), rs.getDouble(2), SqlTime.get(rs, 3), SqlTime.get(rs, 4), rs.getInt(5),
                rs.getString(6));
    }
}
