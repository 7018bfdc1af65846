package dev.mailrun.campaign.store.recipient;

import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.db.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The campaign_status_count table: a campaign's recipients by stored status and by the relay that
 * took their last attempt, kept exact by every statement of this package that inserts recipients
 * or changes their status — each adds its {@link Delta} in its own transaction, as one
 * upsert statement. {@code campaign status} then reads a few rows instead of counting a campaign's rows.
 *
 * <p>A change whose rows' statuses are not known beforehand first reads and locks those rows
 * ({@link #lock}), then changes exactly the rows it read, by id: the delta is what it read, whatever
 * other writers did before the lock. Rows are locked in id order, count rows in key order, so two
 * writers of one campaign wait for each other rather than deadlock on the counts.
 */
public final class StatusCountTable {

    /** Every status a row stores (sending is a count only, never stored). */
    public static final List<String> ANY = Arrays.stream(RecipientStatus.values())
            .filter(st -> st != RecipientStatus.SENDING).map(RecipientStatus::dbValue).toList();

    /** Ids per statement when rows are locked or changed by id. */
    static final int IDS_PER_STATEMENT = 1_000;

    /** A recipient row's stored status and last relay ('' for none) as read under its lock. */
    public record Row(long id, String status, String relay) {
        public Row {
            relay = relay == null ? "" : relay;
        }
    }

    /** What one transaction changes in a campaign's counts: signed amounts per (status, relay). */
    public static final class Delta {
        private final Map<String, Long> byKey = new TreeMap<>();

        public Delta add(String status, String relay, long n) {
            if (n != 0) {
                byKey.merge(status + '\0' + Objects.requireNonNullElse(relay, ""), n, Long::sum);
            }
            return this;
        }

        /** Every row leaves its status for {@code to}, keeping its relay. */
        public Delta move(Collection<Row> rows, String to) {
            for (Row r : rows) {
                add(r.status(), r.relay(), -1);
                add(to, r.relay(), 1);
            }
            return this;
        }

        boolean isEmpty() {
            return byKey.values().stream().allMatch(n -> n == 0);
        }
    }

    /**
     * Adds {@code delta} to the campaign's counts: one statement, count rows in key order. Call in
     * the transaction that made the change, after it.
     *
     * <p>One multi-row statement rather than a batch: the driver cannot rewrite a batched upsert whose
     * update part takes a parameter into one statement, and sent a round trip per count row, which
     * the flush of a run's results waits for (and the SMTP threads wait for the flush's marks).
     */
    public void apply(Connection c, long campaignId, Delta delta) throws SQLException {
        List<Map.Entry<String, Long>> changes = delta.byKey.entrySet().stream().filter(e -> e.getValue() != 0).toList();
        if (changes.isEmpty()) {
            return;
        }
        // The new values are a derived table the update part can name (VALUES() is deprecated on MySQL 8).
        String rows = "SELECT ? AS campaign_id, ? AS status, ? AS relay, ? AS dn" + " UNION ALL SELECT ?, ?, ?, ?".repeat(changes.size() - 1);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO campaign_status_count (campaign_id, status, relay, n) "
                + "SELECT campaign_id, status, relay, dn FROM (" + rows + ") v ON DUPLICATE KEY UPDATE n = n + v.dn")) {
            int i = 1;
            for (Map.Entry<String, Long> e : changes) {
                int cut = e.getKey().indexOf('\0');
                ps.setLong(i++, campaignId);
                ps.setString(i++, e.getKey().substring(0, cut));
                ps.setString(i++, e.getKey().substring(cut + 1));
                ps.setLong(i++, e.getValue());
            }
            ps.executeUpdate();
        }
    }

    /**
     * Reads and locks the campaign's rows among {@code ids} whose status is one of {@code statuses},
     * in id order. The caller then changes exactly these rows, by id.
     */
    public List<Row> lock(Connection c, long campaignId, Collection<Long> ids, Collection<String> statuses)
            throws SQLException {
        List<Long> sorted = ids.stream().sorted().distinct().toList();
        List<Row> rows = new ArrayList<>(sorted.size());
        for (int from = 0; from < sorted.size(); from += IDS_PER_STATEMENT) {
            List<Long> chunk = sorted.subList(from, Math.min(sorted.size(), from + IDS_PER_STATEMENT));
            // FORCE INDEX: by primary key only, never a range of the campaign in another index, which
            // would lock every row it read.
            try (PreparedStatement ps = c.prepareStatement("SELECT id, status, relay FROM recipient FORCE INDEX (PRIMARY) WHERE id IN ("
                    + Sql.placeholders(chunk.size()) + ") AND campaign_id = ? AND status IN (" + Sql.placeholders(statuses.size())
                    + ") ORDER BY id FOR UPDATE")) {
                int i = 1;
                for (long id : chunk) {
                    ps.setLong(i++, id);
                }
                ps.setLong(i++, campaignId);
                for (String s : statuses) {
                    ps.setString(i++, s);
                }
                read(ps, rows);
            }
        }
        return rows;
    }

    /**
     * Reads and locks up to {@code limit} of the campaign's rows in one of {@code statuses}, through
     * the claim index in its order (no sort of a large queue): a bulk change (expiry, requeue) taken
     * in bounded steps.
     */
    public List<Row> lockByStatus(Connection c, long campaignId, Collection<String> statuses, int limit) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT id, status, relay FROM recipient FORCE INDEX (ix_recipient_claim)"
                + " WHERE campaign_id = ? AND status IN (" + Sql.placeholders(statuses.size()) + ") LIMIT ? FOR UPDATE")) {
            int i = 1;
            ps.setLong(i++, campaignId);
            for (String s : statuses) {
                ps.setString(i++, s);
            }
            ps.setInt(i, limit);
            read(ps, rows);
        }
        return rows;
    }

    private static void read(PreparedStatement ps, List<Row> into) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                into.add(new Row(rs.getLong(1), rs.getString(2), rs.getString(3)));
            }
        }
    }

    /** The campaign's counts as maintained: (status, relay) → n, zero rows left out. */
    public Map<String, Map<String, Long>> read(Connection c, long campaignId) throws SQLException {
        return counts(c, campaignId, "SELECT status, relay, n FROM campaign_status_count WHERE campaign_id = ? AND n <> 0");
    }

    /** The same counts freshly counted from the recipient rows: a full read of the campaign. */
    public Map<String, Map<String, Long>> recount(Connection c, long campaignId) throws SQLException {
        return counts(c, campaignId, "SELECT status, COALESCE(relay, ''), COUNT(*) FROM recipient WHERE campaign_id = ?"
                + " GROUP BY status, COALESCE(relay, '')");
    }

    private static Map<String, Map<String, Long>> counts(Connection c, long campaignId, String sql) throws SQLException {
        Map<String, Map<String, Long>> counts = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    counts.computeIfAbsent(rs.getString(1), k -> new TreeMap<>()).merge(rs.getString(2), rs.getLong(3), Long::sum);
                }
            }
        }
        return counts;
    }

    /**
     * Replaces the campaign's counts by a fresh count of its rows, under a lock on them: for rows
     * written behind this package's back (a repair by hand, an older worker during an upgrade).
     */
    public void rebuild(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement lockRows = c.prepareStatement("SELECT COUNT(*) FROM recipient WHERE campaign_id = ? FOR UPDATE");
             PreparedStatement delete = c.prepareStatement("DELETE FROM campaign_status_count WHERE campaign_id = ?");
             PreparedStatement insert = c.prepareStatement("""
                     INSERT INTO campaign_status_count (campaign_id, status, relay, n)
                     SELECT campaign_id, status, COALESCE(relay, ''), COUNT(*) FROM recipient WHERE campaign_id = ?
                     GROUP BY campaign_id, status, COALESCE(relay, '')""")) {
            lockRows.setLong(1, campaignId);
            lockRows.executeQuery().close();
            delete.setLong(1, campaignId);
            delete.executeUpdate();
            insert.setLong(1, campaignId);
            insert.executeUpdate();
        }
    }

    /** How many (status, relay) counts differ between two readings. */
    public static int differences(Map<String, Map<String, Long>> a, Map<String, Map<String, Long>> b) {
        Set<String> keys = new HashSet<>();
        a.forEach((status, relays) -> relays.keySet().forEach(r -> keys.add(status + '\0' + r)));
        b.forEach((status, relays) -> relays.keySet().forEach(r -> keys.add(status + '\0' + r)));
        int differ = 0;
        for (String key : keys) {
            String status = key.substring(0, key.indexOf('\0'));
            String relay = key.substring(key.indexOf('\0') + 1);
            if (a.getOrDefault(status, Map.of()).getOrDefault(relay, 0L).longValue()
                    != b.getOrDefault(status, Map.of()).getOrDefault(relay, 0L).longValue()) {
                differ++;
            }
        }
        return differ;
    }

    /** Counts by status alone (relays summed), every stored status present. */
    public static Map<RecipientStatus, Long> byStatus(Map<String, Map<String, Long>> counts) {
        Map<RecipientStatus, Long> byStatus = new EnumMap<>(RecipientStatus.class);
        for (RecipientStatus s : RecipientStatus.values()) {
            byStatus.put(s, counts.getOrDefault(s.dbValue(), Map.of()).values().stream().mapToLong(Long::longValue).sum());
        }
        return byStatus;
    }
}
