package dev.mailrun.campaign.send;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * Waits for what runs write of their shares ({@code relay_share}, {@code pace_tail}): a test holding
 * runs back at a chosen moment. Bounded waits, never a timing assertion.
 */
final class ShareRows {

    private static final long LIMIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private ShareRows() {
    }

    /** The run token of a live holder of {@code name} other than {@code except}, once there is one. */
    static String awaitHolder(DataSource ds, String name, String... except) throws Exception {
        return await("a holder of " + name, () -> {
            try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                    "SELECT holder FROM relay_share WHERE relay = ? AND expires_at >= UTC_TIMESTAMP(3)")) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        if (!List.of(except).contains(rs.getString(1))) {
                            return Optional.of(rs.getString(1));
                        }
                    }
                }
            }
            return Optional.empty();
        });
    }

    /** Once {@code holder} has handed {@code name} over to {@code joiner}. */
    static void awaitHandover(DataSource ds, String name, String holder, String joiner) throws Exception {
        await(holder + "'s handover of " + name + " to " + joiner, () -> count(ds,
                "SELECT COUNT(*) FROM pace_tail WHERE name = ? AND holder = ? AND joiner = ?", name, holder, joiner) > 0
                ? Optional.of(true) : Optional.empty());
    }

    /** Once {@code joiner} has counted its handovers (a run deletes them as it joins). */
    static void awaitCounted(DataSource ds, String joiner) throws Exception {
        await(joiner + " counting its handovers", () -> count(ds, "SELECT COUNT(*) FROM pace_tail WHERE joiner = ?", joiner) == 0
                ? Optional.of(true) : Optional.empty());
    }

    private static long count(DataSource ds, String sql, String... values) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                ps.setString(i + 1, values[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private interface Probe<T> {
        Optional<T> get() throws SQLException;
    }

    private static <T> T await(String what, Probe<T> probe) throws Exception {
        long until = System.nanoTime() + LIMIT_NANOS;
        while (System.nanoTime() < until) {
            Optional<T> found = probe.get();
            if (found.isPresent()) {
                return found.get();
            }
            Thread.sleep(2);
        }
        throw new AssertionError("no " + what + " within 30 s");
    }
}
