package dev.mailrun.events.store;

import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The statements of {@code event_endpoint}: per endpoint, the lease that lets one worker at a time
 * deliver to it, its back-off after failures, and whether it is disabled.
 *
 * <p>The lease is the scheduler's: one conditional UPDATE taken and compared with
 * {@code UTC_TIMESTAMP(3)} only, so clock skew between workers cannot break it; every write a
 * holder makes about its deliveries carries its token.
 */
public final class EndpointTable {

    /** An endpoint's state. Instants are null where not set. */
    public record State(String name, Instant nextAttemptAt, Instant failingSince, int failures, String lastError,
                        Instant disabledAt, boolean leased) {}

    public void ensure(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO event_endpoint (name) VALUES (?)")) {
            ps.setString(1, name);
            ps.executeUpdate();
        }
    }

    /**
     * Takes (or extends) the lease on {@code name} for {@code token} until {@code lease} from the
     * database's now; false when another holder's lease is live or the endpoint is disabled.
     */
    public boolean lease(Connection c, String name, String token, Duration lease) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE event_endpoint SET lease_token = ?, lease_until = UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND
                WHERE name = ? AND disabled_at IS NULL
                  AND (lease_token IS NULL OR lease_token = ? OR lease_until <= UTC_TIMESTAMP(3))""")) {
            ps.setString(1, token);
            ps.setLong(2, lease.toNanos() / 1000);
            ps.setString(3, name);
            ps.setString(4, token);
            return ps.executeUpdate() == 1;
        }
    }

    /** Locks the row while {@code token} holds the lease: what a holder's writes are fenced by. */
    public boolean holds(Connection c, String name, String token) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT 1 FROM event_endpoint WHERE name = ? AND lease_token = ? AND lease_until > UTC_TIMESTAMP(3)
                FOR UPDATE""")) {
            ps.setString(1, name);
            ps.setString(2, token);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    public void release(Connection c, String name, String token) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE event_endpoint SET lease_token = NULL, lease_until = NULL WHERE name = ? AND lease_token = ?")) {
            ps.setString(1, name);
            ps.setString(2, token);
            ps.executeUpdate();
        }
    }

    /** A delivery succeeded: the run of failures, if any, is over. */
    public void succeeded(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE event_endpoint SET failures = 0, failing_since = NULL, next_attempt_at = NULL, last_error = NULL
                WHERE name = ? AND failures > 0""")) {
            ps.setString(1, name);
            ps.executeUpdate();
        }
    }

    /** A delivery failed and will be tried again at {@code next}; returns since when the endpoint has been failing. */
    public Instant failed(Connection c, String name, Instant now, Instant next, String error) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE event_endpoint SET failures = failures + 1, failing_since = COALESCE(failing_since, ?),
                    next_attempt_at = ?, last_error = ? WHERE name = ?""")) {
            SqlTime.set(ps, 1, now);
            SqlTime.set(ps, 2, next);
            ps.setString(3, Sql.truncate(error, 1000));
            ps.setString(4, name);
            ps.executeUpdate();
        }
        return find(c, name).map(State::failingSince).orElse(now);
    }

    /** Disables the endpoint: no more attempts until an operator enables it again. */
    public boolean disable(Connection c, String name, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE event_endpoint SET disabled_at = ?, lease_token = NULL, lease_until = NULL
                WHERE name = ? AND disabled_at IS NULL""")) {
            SqlTime.set(ps, 1, now);
            ps.setString(2, name);
            return ps.executeUpdate() == 1;
        }
    }

    /** Enables it again, with its failures forgotten: the next pass delivers at once. */
    public boolean enable(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE event_endpoint SET disabled_at = NULL, failures = 0, failing_since = NULL, next_attempt_at = NULL
                WHERE name = ?""")) {
            ps.setString(1, name);
            return ps.executeUpdate() == 1;
        }
    }

    public Optional<State> find(Connection c, String name) throws SQLException {
        List<State> all = read(c, " WHERE name = ?", name);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(0));
    }

    public List<State> all(Connection c) throws SQLException {
        return read(c, "", null);
    }

    private static List<State> read(Connection c, String where, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT name, next_attempt_at, failing_since, failures, last_error, disabled_at,
                       lease_token IS NOT NULL AND lease_until > UTC_TIMESTAMP(3)
                FROM event_endpoint""" + where + " ORDER BY name")) {
            if (name != null) {
                ps.setString(1, name);
            }
            try (ResultSet rs = ps.executeQuery()) {
                List<State> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(new State(rs.getString(1), SqlTime.get(rs, 2), SqlTime.get(rs, 3), rs.getInt(4),
                            rs.getString(5), SqlTime.get(rs, 6), rs.getBoolean(7)));
                }
                return rows;
            }
        }
    }
}
