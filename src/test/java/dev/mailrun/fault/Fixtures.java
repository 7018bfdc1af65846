package dev.mailrun.fault;

import dev.mailrun.testing.StatusCounts;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.campaign.store.recipient.RecipientCounts;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/** Test data and read-backs straight from the real tables. */
final class Fixtures {

    static final Pattern TO = Pattern.compile("^To: .*?<?(r\\d+@list\\.example)>?\\r?$", Pattern.MULTILINE);
    private static final ObjectMapper JSON = new ObjectMapper();

    private Fixtures() {}

    /** n pending recipients r{from}@list.example … in one batched insert. */
    static void recipients(DataSource ds, long campaignId, int from, int n) throws SQLException {
        Transactions.inTransaction(ds, c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO recipient (campaign_id, email, name, status, updated_at)
                    VALUES (?, ?, ?, 'pending', UTC_TIMESTAMP(3))""")) {
                for (int i = from; i < from + n; i++) {
                    ps.setLong(1, campaignId);
                    ps.setString(2, "r" + i + "@list.example");
                    ps.setString(3, "Reader " + i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            StatusCounts.inserted(c, campaignId, n);
            return null;
        });
    }

    private static final Pattern ADDRESS = Pattern.compile("r\\d+@list\\.example");

    /** The first list address in a line such as {@code RCPT TO:<r5@list.example>}, or "?". */
    static String addressIn(String line) {
        Matcher m = ADDRESS.matcher(line);
        return m.find() ? m.group() : "?";
    }

    /**
     * Whether message content read up to the end of DATA is whole: a To header and the closing
     * MIME boundary. Content cut off by a dropped connection is not.
     */
    static boolean isComplete(String content) {
        return TO.matcher(content).find() && content.stripTrailing().endsWith("--");
    }

    static String recipientOf(String message) {
        Matcher m = TO.matcher(message);
        return m.find() ? m.group(1) : "?";
    }

    /** Messages per address in what the SMTP server accepted. */
    static Map<String, Integer> perAddress(List<String> messages) {
        Map<String, Integer> counts = new HashMap<>();
        messages.forEach(m -> counts.merge(recipientOf(m), 1, Integer::sum));
        return counts;
    }

    /**
     * What a killed worker's run left in flight and still waiting, once the database has settled the
     * dead connection's last transaction: locking the campaign's in-flight row waits for a flush the
     * server was still running for it to commit or roll back, and the rows are then read in the
     * same transaction.
     */
    static long settledSendingCount(DataSource ds, long campaignId) throws SQLException {
        return Transactions.inTransaction(ds, c -> {
            SortedSet<Long> held = new InFlightTable().lock(c, campaignId).map(InFlightTable.Held::recipientIds)
                    .orElse(new TreeSet<>());
            return new RecipientCounts().counts(c, campaignId, held).get(RecipientStatus.SENDING);
        });
    }

    static Map<String, Long> counts(DataSource ds, long campaignId) throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT status, COUNT(*) FROM recipient WHERE campaign_id = ? GROUP BY status")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    counts.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return counts;
    }

    /** email → status for one campaign. */
    static Map<String, String> statuses(DataSource ds, long campaignId) throws SQLException {
        Map<String, String> m = new HashMap<>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT email, status FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    m.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return m;
    }

    static long scalar(DataSource ds, String sql, Object... args) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    static int update(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            return s.executeUpdate(sql);
        }
    }

    /** What a dead worker's lease would do once tick.lease ran out, done now (as the scheduler's own tests do). */
    static int expireLeases(DataSource ds) throws SQLException {
        return update(ds, "UPDATE task SET lease_until = UTC_TIMESTAMP(3) - INTERVAL 1 SECOND WHERE run_token IS NOT NULL");
    }

    /**
     * What a dead or stalled run's relay shares would do once their time to live ran out (60 s after
     * the last renewal, by the database clock: RelayShare.TTL), done now. Until then every run of the
     * next worker waits for their handover for two renewal periods and then a full first second, which
     * on the fault tests' 3 s ticks leaves it no time to send: a minute of nothing sent per kill.
     */
    static int expireRelayShares(DataSource ds) throws SQLException {
        return update(ds, "UPDATE relay_share SET expires_at = UTC_TIMESTAMP(3) - INTERVAL 1 SECOND");
    }

    /**
     * What a killed worker's lease on an event endpoint would do once it ran out (the endpoint's
     * timeout plus 30 s, by the database clock), done now, as DispatcherTest does: until then no other
     * worker delivers to that endpoint.
     */
    static int expireEndpointLeases(DataSource ds) throws SQLException {
        return update(ds, "UPDATE event_endpoint SET lease_until = UTC_TIMESTAMP(3) - INTERVAL 1 SECOND WHERE lease_token IS NOT NULL");
    }

    /** Whether a run holds the campaign's task (its lease may have run out). */
    static boolean isHeld(DataSource ds, long campaignId) throws SQLException {
        return scalar(ds, "SELECT run_token IS NOT NULL FROM task WHERE name = ?", "campaign-" + campaignId) == 1;
    }

    /** How many runs of the campaign's task a successor recorded abandoned (a dead run's lease ran out). */
    static long abandonedRuns(DataSource ds, long campaignId) throws SQLException {
        return scalar(ds, "SELECT COUNT(*) FROM task_run r JOIN task t ON t.id = r.task_id WHERE t.name = ? AND r.outcome = 'abandoned'",
                "campaign-" + campaignId);
    }

    /** The campaign task's checkpointed counters ({@code progress} in its metadata); empty object if none yet. */
    static JsonNode progress(DataSource ds, long campaignId) throws Exception {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT metadata FROM task WHERE name = ?")) {
            ps.setString(1, "campaign-" + campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return JSON.readTree(rs.getString(1)).path("progress");
            }
        }
    }

    static String campaignStatus(DataSource ds, long campaignId) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT status FROM campaign WHERE id = ?")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /** A finished run of a task as task_run recorded it. */
    record RunRow(long taskId, String outcome, Timestamp startedAt, Timestamp finishedAt, String owner) {}

    static List<RunRow> finishedRuns(DataSource ds) throws SQLException {
        List<RunRow> rows = new ArrayList<>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT task_id, outcome, started_at, finished_at, owner FROM task_run
                WHERE outcome IN ('succeeded', 'idle', 'blocked', 'failed', 'stopped', 'abandoned') ORDER BY task_id, started_at""")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new RunRow(rs.getLong(1), rs.getString(2), rs.getTimestamp(3), rs.getTimestamp(4), rs.getString(5)));
                }
            }
        }
        return rows;
    }

    /** Pairs of runs of one task whose [started_at, finished_at] intervals overlap. */
    static List<String> overlappingRuns(List<RunRow> runs) {
        List<String> overlaps = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            for (int j = i + 1; j < runs.size(); j++) {
                RunRow a = runs.get(i);
                RunRow b = runs.get(j);
                if (a.taskId() == b.taskId() && a.startedAt().before(b.finishedAt()) && b.startedAt().before(a.finishedAt())) {
                    overlaps.add(a + " overlaps " + b);
                }
            }
        }
        return overlaps;
    }
}
