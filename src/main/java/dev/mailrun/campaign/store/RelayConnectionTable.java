package dev.mailrun.campaign.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * What is known of a relay's connections across workers: its learned limit
 * ({@code relay_connection_limit}) and how each live sending run's pool is sized (the connection
 * columns of {@code relay_share}, written by the run holding the row).
 */
public final class RelayConnectionTable {

    /** How long a learned limit holds after it was last lowered. */
    public static final int LIMIT_MINUTES = 30;
    private static final int REPLY_MAX = 500;

    /** One run's pool, as it reported itself at its last renewal. */
    public record PoolState(int open, int target, Optional<Integer> needed, int ceiling, Optional<Integer> messageMillis,
                            double rate) {}

    /** The relay's pools summed over every live run: what status reports. */
    public record RelayPools(int runs, int open, int target, Optional<Integer> needed, int ceiling,
                             Optional<Integer> messageMillis, double rate) {}

    /**
     * Lowers the relay's limit to {@code ceiling}, or sets it when none holds: a lower value wins
     * within {@link #LIMIT_MINUTES}, any value replaces a lapsed one.
     */
    public void lower(Connection c, String relay, int ceiling, String reply) throws SQLException {
        String text = reply.length() > REPLY_MAX ? reply.substring(0, REPLY_MAX) : reply;
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO relay_connection_limit (relay, ceiling, lowered_at, reply)
                VALUES (?, ?, UTC_TIMESTAMP(3), ?)
                ON DUPLICATE KEY UPDATE
                    ceiling = IF(lowered_at < UTC_TIMESTAMP(3) - INTERVAL %d MINUTE, ?, LEAST(ceiling, ?)),
                    reply = ?,
                    lowered_at = UTC_TIMESTAMP(3)""".formatted(LIMIT_MINUTES))) {
            // Bound values repeated: VALUES(col) is deprecated in MySQL 8 and MariaDB lacks the row alias.
            ps.setString(1, relay);
            ps.setInt(2, ceiling);
            ps.setString(3, text);
            ps.setInt(4, ceiling);
            ps.setInt(5, ceiling);
            ps.setString(6, text);
            ps.executeUpdate();
        }
    }

    /** The relay's limit while it holds. */
    public Optional<Integer> limit(Connection c, String relay) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT ceiling FROM relay_connection_limit
                WHERE relay = ? AND lowered_at >= UTC_TIMESTAMP(3) - INTERVAL %d MINUTE""".formatted(LIMIT_MINUTES))) {
            ps.setString(1, relay);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getInt(1)) : Optional.empty();
            }
        }
    }

    /** Writes this run's pool state into its share row. */
    public void report(Connection c, String relay, String holder, PoolState state) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE relay_share SET connections_open = ?, connections_target = ?, connections_needed = ?,
                    connections_ceiling = ?, message_ms = ?, send_rate = ?
                WHERE relay = ? AND holder = ?""")) {
            ps.setInt(1, state.open());
            ps.setInt(2, state.target());
            ps.setObject(3, state.needed().orElse(null));
            ps.setInt(4, state.ceiling());
            ps.setObject(5, state.messageMillis().orElse(null));
            ps.setDouble(6, state.rate());
            ps.setString(7, relay);
            ps.setString(8, holder);
            ps.executeUpdate();
        }
    }

    /** Every relay's live pools summed, by relay name; a relay no live run reported is absent. */
    public java.util.Map<String, RelayPools> pools(Connection c) throws SQLException {
        java.util.Map<String, RelayPools> pools = new java.util.TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT relay, COUNT(*), SUM(connections_open), SUM(connections_target), SUM(connections_needed),
                       COUNT(connections_needed), SUM(connections_ceiling), AVG(message_ms), COUNT(message_ms), SUM(send_rate)
                FROM relay_share
                WHERE expires_at >= UTC_TIMESTAMP(3) AND connections_open IS NOT NULL
                GROUP BY relay""")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int runs = rs.getInt(2);
                    Optional<Integer> needed = rs.getInt(6) == runs ? Optional.of(rs.getInt(5)) : Optional.empty();
                    Optional<Integer> ms = rs.getInt(9) > 0 ? Optional.of((int) Math.round(rs.getDouble(8))) : Optional.empty();
                    pools.put(rs.getString(1), new RelayPools(runs, rs.getInt(3), rs.getInt(4), needed, rs.getInt(7), ms,
                            rs.getDouble(10)));
                }
            }
        }
        return pools;
    }
}
