package dev.mailrun.campaign.store;

import dev.mailrun.db.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The relay_share table: one row per sending run of a relay, so that several workers can keep
 * the relay's rate in total. A run renews its row every second; how it turns the live holders
 * into its rate is the sending task's business. A run that dies stops renewing and its row
 * expires, giving its share back. Expiry is judged by the database clock, like every lease in
 * mailrun.
 */
public final class RelayShareTable {

    /**
     * The live holders of a relay's rate as one holder sees them at its renewal.
     *
     * @param holders how many, this one included (at least 1)
     * @param rank    this holder's place among them in holder order, from 0
     */
    public record Holders(int holders, int rank) {
        public Holders {
            if (holders < 1 || rank < 0 || rank >= holders) {
                throw new IllegalArgumentException("rank " + rank + " of " + holders + " holders");
            }
        }
    }

    /** Renews this holder's share and returns the relay's live holders, this one included. */
    public Holders renew(Connection c, String relay, String holder, Duration ttl) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO relay_share (relay, holder, expires_at)
                VALUES (?, ?, UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND)
                ON DUPLICATE KEY UPDATE expires_at = UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND""")) {
            // The update repeats the bound value: VALUES(col) there is deprecated in MySQL 8.0.20 (a
            // warning on every renewal) and the row alias that replaces it is unknown to MariaDB.
            ps.setString(1, relay);
            ps.setString(2, holder);
            ps.setLong(3, ttl.toNanos() / 1000);
            ps.setLong(4, ttl.toNanos() / 1000);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(
                "DELETE FROM relay_share WHERE relay = ? AND expires_at < UTC_TIMESTAMP(3)")) {
            ps.setString(1, relay);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT COUNT(*), COALESCE(SUM(holder < ?), 0) FROM relay_share
                WHERE relay = ? AND expires_at >= UTC_TIMESTAMP(3)""")) {
            ps.setString(1, holder);
            ps.setString(2, relay);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                int holders = Math.max(1, rs.getInt(1));
                return new Holders(holders, Math.min(rs.getInt(2), holders - 1));
            }
        }
    }

    /**
     * One name's live holders as one holder's renewal found them: how many and its rank, and the
     * other holders' run tokens.
     */
    public record Live(Holders holders, Set<String> others, Set<String> below, Map<String, Double> wants) {
        public Live {
            others = Set.copyOf(others);
            below = Set.copyOf(below);
            wants = Map.copyOf(wants);
            if (others.size() != holders.holders() - 1 || below.size() != holders.rank() || !others.containsAll(below)
                    || !others.containsAll(wants.keySet())) {
                throw new IllegalArgumentException(others.size() + " others among " + holders.holders() + " holders, "
                        + below.size() + " below at rank " + holders.rank() + ", wants of " + wants.keySet());
            }
        }

        /** Alone, or among others who want as much as their share. */
        public Live(Holders holders, Set<String> others, Set<String> below) {
            this(holders, others, below, Map.of());
        }
    }

    /**
     * {@link #renew} for several shares at once — the relay's and each domain group's — in three
     * statements whatever their number. Returns the live holders of each, this one included.
     */
    public Map<String, Live> renewAll(Connection c, List<String> names, String holder, Duration ttl) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO relay_share (relay, holder, expires_at) VALUES "
                + String.join(", ", java.util.Collections.nCopies(names.size(), "(?, ?, UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND)"))
                + " ON DUPLICATE KEY UPDATE expires_at = UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND")) {
            // Every row gets the same expiry, so one more parameter stands for VALUES(expires_at).
            int i = 1;
            for (String name : names) {
                ps.setString(i++, name);
                ps.setString(i++, holder);
                ps.setLong(i++, ttl.toNanos() / 1000);
            }
            ps.setLong(i, ttl.toNanos() / 1000);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM relay_share WHERE relay IN ("
                + Sql.placeholders(names.size()) + ") AND expires_at < UTC_TIMESTAMP(3)")) {
            for (int i = 0; i < names.size(); i++) {
                ps.setString(i + 1, names.get(i));
            }
            ps.executeUpdate();
        }
        Map<String, Set<String>> others = new HashMap<>();
        Map<String, Set<String>> below = new HashMap<>();
        Map<String, Map<String, Double>> wants = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT relay, holder, holder < ?, wants FROM relay_share "
                + "WHERE relay IN (" + Sql.placeholders(names.size()) + ") AND expires_at >= UTC_TIMESTAMP(3)")) {
            // The rows themselves, not a count: a run joining a share waits for each other holder's
            // handover by name, and a holder wanting less than its share leaves the rest to the
            // others. The rank is the database's comparison, as in {@link #renew}.
            ps.setString(1, holder);
            for (int i = 0; i < names.size(); i++) {
                ps.setString(i + 2, names.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    String other = rs.getString(2);
                    if (other.equals(holder)) {
                        continue;
                    }
                    others.computeIfAbsent(name, k -> new HashSet<>()).add(other);
                    if (rs.getBoolean(3)) {
                        below.computeIfAbsent(name, k -> new HashSet<>()).add(other);
                    }
                    double want = rs.getDouble(4);
                    if (!rs.wasNull()) {
                        wants.computeIfAbsent(name, k -> new HashMap<>()).put(other, want);
                    }
                }
            }
        }
        Map<String, Live> live = new HashMap<>();
        for (String name : names) {
            Set<String> rest = others.getOrDefault(name, Set.of());
            Set<String> lower = below.getOrDefault(name, Set.of());
            live.put(name, new Live(new Holders(rest.size() + 1, lower.size()), rest, lower, wants.getOrDefault(name, Map.of())));
        }
        return live;
    }

    /**
     * Sets what {@code holder} can still use of {@code relay}'s rate ({@code wants}, messages per
     * second), less than its share: the other holders share the rest from their next renewal.
     */
    public void want(Connection c, String relay, String holder, double wants) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE relay_share SET wants = ? WHERE relay = ? AND holder = ?")) {
            ps.setDouble(1, wants);
            ps.setString(2, relay);
            ps.setString(3, holder);
            ps.executeUpdate();
        }
    }

    /**
     * Marks {@code holder} joined on {@code names}, now (database clock): its window there holds
     * every tail written before ({@link PaceTailTable#read}). A name left out stays unmarked, and
     * whoever joins after counts those tails itself.
     */
    public void joined(Connection c, List<String> names, String holder) throws SQLException {
        if (!names.isEmpty()) {
            forHolder(c, "UPDATE relay_share SET joined_at = UTC_TIMESTAMP(3)", names, holder);
        }
    }

    /**
     * Per name with other live holders than {@code holder}: when the earliest of them joined, empty
     * when one of them has not (still joining, a window that could not hold every tail it counted,
     * or a worker that does not record it). Names without another live holder are absent.
     */
    public Map<String, Optional<LocalDateTime>> othersJoined(Connection c, List<String> names, String holder)
            throws SQLException {
        Map<String, Optional<LocalDateTime>> joined = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT relay, MIN(joined_at), SUM(joined_at IS NULL) FROM relay_share "
                + "WHERE relay IN (" + Sql.placeholders(names.size()) + ") AND holder <> ? AND expires_at >= UTC_TIMESTAMP(3) "
                + "GROUP BY relay")) {
            int i = 1;
            for (String name : names) {
                ps.setString(i++, name);
            }
            ps.setString(i, holder);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    LocalDateTime earliest = rs.getObject(2, LocalDateTime.class);
                    joined.put(rs.getString(1), rs.getLong(3) > 0 ? Optional.empty() : Optional.ofNullable(earliest));
                }
            }
        }
        return joined;
    }

    /** {@link #release} of several shares at once. */
    public void releaseAll(Connection c, List<String> names, String holder) throws SQLException {
        forHolder(c, "DELETE FROM relay_share", names, holder);
    }

    /** Runs {@code statement} (an UPDATE or DELETE of relay_share) on {@code holder}'s rows of {@code names}. */
    private static void forHolder(Connection c, String statement, List<String> names, String holder) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(statement + " WHERE relay IN ("
                + Sql.placeholders(names.size()) + ") AND holder = ?")) {
            int i = 1;
            for (String name : names) {
                ps.setString(i++, name);
            }
            ps.setString(i, holder);
            ps.executeUpdate();
        }
    }

    public void release(Connection c, String relay, String holder) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM relay_share WHERE relay = ? AND holder = ?")) {
            ps.setString(1, relay);
            ps.setString(2, holder);
            ps.executeUpdate();
        }
    }
}
