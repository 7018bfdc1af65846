package dev.mailrun.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Audience test data straight into the real tables, in bulk: the server generates the rows. */
public final class AudienceFixtures {

    /** 0–999,999 from six cross-joined digits: no recursion limit (MySQL's cte_max_recursion_depth) to meet. */
    private static final String NUMBERS = "WITH d AS (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3"
            + " UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9),"
            + " seq AS (SELECT a.n + 10 * b.n + 100 * c.n + 1000 * e.n + 10000 * f.n + 100000 * g.n AS n"
            + " FROM d a, d b, d c, d e, d f, d g) ";

    private AudienceFixtures() {}

    /**
     * {@code count} enabled subscribers {@code PREFIX-<n>@example.com} (n from 0), each with the attribute
     * {@code n} and a confirmed subscription to the list {@code listId}, in two statements.
     */
    public static void subscribe(DataSource ds, long listId, String prefix, int count) throws SQLException {
        try (Connection c = ds.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO subscriber (email, attribs, status, created_at, updated_at) "
                    + NUMBERS + "SELECT CONCAT(?, '-', n, '@example.com'), JSON_OBJECT('n', n), 'enabled', UTC_TIMESTAMP(3),"
                    + " UTC_TIMESTAMP(3) FROM seq WHERE n < ? ORDER BY n")) {
                ps.setString(1, prefix);
                ps.setInt(2, count);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO subscription (subscriber_id, list_id, status, source, created_at,"
                    + " updated_at) SELECT id, ?, 'confirmed', 'import', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3) FROM subscriber"
                    + " WHERE email LIKE CONCAT(?, '-%@example.com')")) {
                ps.setLong(1, listId);
                ps.setString(2, prefix);
                ps.executeUpdate();
            }
        }
    }

    /** The status of {@code email}'s subscription to the list {@code listId}; "none" without one. */
    public static String subscriptionStatus(DataSource ds, String email, long listId) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT s.status FROM subscription s JOIN subscriber b ON b.id = s.subscriber_id WHERE b.email = ? AND s.list_id = ?")) {
            ps.setString(1, email);
            ps.setLong(2, listId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : "none";
            }
        }
    }
}
