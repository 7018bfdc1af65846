package dev.mailrun.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** Bulk test data straight into the recipient table, and counts read back from it. */
public final class Recipients {

    private static final int ROWS_PER_STATEMENT = 1_000;
    private static final int ROWS_PER_TRANSACTION = 20_000;

    private Recipients() {}

    /**
     * Inserts {@code count} pending recipients {@code r<from>@list.example …} with a {@code company}
     * merge field, as multi-row INSERTs of 1,000 rows, 20,000 rows per transaction.
     */
    /** Marks every pending recipient of the campaign sent, 50,000 ids per transaction (a part-drained campaign). */
    public static void markSent(DataSource ds, long campaignId) throws SQLException {
        long min;
        long max;
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT COALESCE(MIN(id), 0), COALESCE(MAX(id), -1) FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                min = rs.getLong(1);
                max = rs.getLong(2);
            }
        }
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "UPDATE recipient SET status = 'sent', attempts = 1, sent_at = UTC_TIMESTAMP(3), updated_at = UTC_TIMESTAMP(3) "
                        + "WHERE campaign_id = ? AND status = 'pending' AND id >= ? AND id < ?")) {
            for (long from = min; from <= max; from += 50_000) {
                ps.setLong(1, campaignId);
                ps.setLong(2, from);
                ps.setLong(3, from + 50_000);
                ps.executeUpdate();
            }
        }
    }

    public static void insertPending(DataSource ds, long campaignId, long from, long count) throws SQLException {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            String sql = "INSERT INTO recipient (campaign_id, email, name, fields, status, updated_at) VALUES "
                    + String.join(",", java.util.Collections.nCopies(ROWS_PER_STATEMENT,
                            "(?, ?, ?, '{\"company\": \"ACME\"}', 'pending', UTC_TIMESTAMP(3))"));
            try (PreparedStatement full = c.prepareStatement(sql)) {
                long i = from;
                long end = from + count;
                long inTransaction = 0;
                while (end - i >= ROWS_PER_STATEMENT) {
                    int p = 1;
                    for (int k = 0; k < ROWS_PER_STATEMENT; k++, i++) {
                        p = bind(full, p, campaignId, i);
                    }
                    full.executeUpdate();
                    inTransaction += ROWS_PER_STATEMENT;
                    if (inTransaction >= ROWS_PER_TRANSACTION) {
                        c.commit();
                        inTransaction = 0;
                    }
                }
                if (i < end) {
                    int rest = (int) (end - i);
                    try (PreparedStatement last = c.prepareStatement(sql.substring(0, sql.indexOf("VALUES") + 7)
                            + String.join(",", java.util.Collections.nCopies(rest,
                                    "(?, ?, ?, '{\"company\": \"ACME\"}', 'pending', UTC_TIMESTAMP(3))")))) {
                        int p = 1;
                        for (; i < end; i++) {
                            p = bind(last, p, campaignId, i);
                        }
                        last.executeUpdate();
                    }
                }
            }
            c.commit();
        }
    }

    private static int bind(PreparedStatement ps, int p, long campaignId, long i) throws SQLException {
        ps.setLong(p++, campaignId);
        ps.setString(p++, "r" + i + "@list.example");
        ps.setString(p++, "Reader " + i);
        return p;
    }

    public static long count(DataSource ds, long campaignId, String status) throws SQLException {
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM recipient WHERE campaign_id = ? AND status = ?")) {
            ps.setLong(1, campaignId);
            ps.setString(2, status);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    public static void analyze(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("ANALYZE TABLE recipient");
        }
    }
}
