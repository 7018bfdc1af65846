package dev.mailrun.events.store;

import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The statements of {@code event_delivery}: one row per event and endpoint, pending until delivered,
 * failed (refused for good, with the reply) or discarded. Reading a batch joins the event it delivers.
 */
public final class DeliveryTable {

    public enum Status {
        PENDING, DELIVERED, FAILED, DISCARDED;

        public String dbValue() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        public static Optional<Status> fromDb(String s) {
            for (Status v : values()) {
                if (v.dbValue().equals(s)) {
                    return Optional.of(v);
                }
            }
            return Optional.empty();
        }
    }

    /** An event as a delivery reads it. */
    public record StoredEvent(long seq, String eventId, String type, Long campaignId, Long recipientId, String email,
                              Instant occurredAt, String data) {}

    /** A delivery as {@code mailrun events list} shows it. */
    public record Listed(String endpoint, StoredEvent event, Status status, int attempts, Instant doneAt, String lastReply) {}

    /** What {@code list} and {@code discard} select: each part optional. */
    public record Filter(Optional<String> endpoint, Optional<Status> status, Optional<String> typePrefix,
                         Optional<Instant> before) {}

    private static final String EVENT_COLUMNS =
            "o.seq, o.event_id, o.type, o.campaign_id, o.recipient_id, o.email, o.occurred_at, o.data";

    /** Pending deliveries for {@code seqs} (as given) to {@code endpoint}; a row there already stays as it is. */
    public void add(Connection c, String endpoint, List<Long> seqs, Instant now) throws SQLException {
        if (seqs.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT IGNORE INTO event_delivery (endpoint, seq, status, created_at) VALUES "
                        + String.join(", ", Collections.nCopies(seqs.size(), "(?, ?, 'pending', ?)")))) {
            int i = 1;
            for (long s : seqs) {
                ps.setString(i++, endpoint);
                ps.setLong(i++, s);
                SqlTime.set(ps, i++, now);
            }
            ps.executeUpdate();
        }
    }

    /** Deliveries for {@code seqs} pending again (a replay): made where missing, reset where done. */
    public int reopen(Connection c, String endpoint, List<Long> seqs, Instant now) throws SQLException {
        if (seqs.isEmpty()) {
            return 0;
        }
        add(c, endpoint, seqs, now);
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE event_delivery SET status = 'pending', done_at = NULL WHERE endpoint = ? AND seq IN ("
                        + Sql.placeholders(seqs.size()) + ")")) {
            ps.setString(1, endpoint);
            int i = 2;
            for (long s : seqs) {
                ps.setLong(i++, s);
            }
            ps.executeUpdate();
        }
        return seqs.size();
    }

    /** The oldest pending deliveries to {@code endpoint}, in the order the events were written. */
    public List<StoredEvent> pending(Connection c, String endpoint, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + EVENT_COLUMNS + """
                 FROM event_delivery d JOIN event_outbox o ON o.seq = d.seq
                WHERE d.endpoint = ? AND d.status = 'pending' ORDER BY d.seq LIMIT ?""")) {
            ps.setString(1, endpoint);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                List<StoredEvent> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(event(rs));
                }
                return rows;
            }
        }
    }

    private static StoredEvent event(ResultSet rs) throws SQLException {
        return new StoredEvent(rs.getLong(1), rs.getString(2), rs.getString(3), (Long) rs.getObject(4, Long.class),
                (Long) rs.getObject(5, Long.class), rs.getString(6), SqlTime.get(rs, 7), rs.getString(8));
    }

    /**
     * Ends the pending deliveries {@code seqs} to {@code endpoint} as {@code status} (delivered or
     * failed) with the endpoint's {@code reply}, counting the attempt; returns how many were pending.
     */
    public int finish(Connection c, String endpoint, List<Long> seqs, Status status, String reply, Instant now)
            throws SQLException {
        return update(c, "status = ?, attempts = attempts + 1, done_at = ?, last_reply = ?", endpoint, seqs,
                ps -> {
                    ps.setString(1, status.dbValue());
                    SqlTime.set(ps, 2, now);
                    ps.setString(3, Sql.truncate(reply, 1000));
                    return 4;
                });
    }

    /** Counts a failed attempt at the pending deliveries {@code seqs}, which stay pending. */
    public int attempted(Connection c, String endpoint, List<Long> seqs, String reply) throws SQLException {
        return update(c, "attempts = attempts + 1, last_reply = ?", endpoint, seqs, ps -> {
            ps.setString(1, Sql.truncate(reply, 1000));
            return 2;
        });
    }

    private interface Binder {
        int bind(PreparedStatement ps) throws SQLException;
    }

    private static int update(Connection c, String set, String endpoint, List<Long> seqs, Binder binder) throws SQLException {
        if (seqs.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE event_delivery SET " + set
                + " WHERE endpoint = ? AND status = 'pending' AND seq IN (" + Sql.placeholders(seqs.size()) + ")")) {
            int i = binder.bind(ps);
            ps.setString(i++, endpoint);
            for (long s : seqs) {
                ps.setLong(i++, s);
            }
            return ps.executeUpdate();
        }
    }

    /** Where a page of {@link #list} ended: its last delivery (deliveries are ordered by seq descending, then endpoint). */
    public record Position(long seq, String endpoint) {}

    /**
     * Deliveries matching {@code filter}, newest first (one event's deliveries by endpoint name), at
     * most {@code limit}, after {@code after} when given: a delivery made meanwhile never shifts a page.
     */
    public List<Listed> list(Connection c, Filter filter, Optional<Position> after, int limit) throws SQLException {
        List<Object> args = new ArrayList<>();
        String where = where(filter, args);
        if (after.isPresent()) {
            where += " AND (d.seq < ? OR (d.seq = ? AND d.endpoint > ?))";
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT " + EVENT_COLUMNS
                + ", d.endpoint, d.status, d.attempts, d.done_at, d.last_reply FROM event_delivery d"
                + " JOIN event_outbox o ON o.seq = d.seq" + where + " ORDER BY d.seq DESC, d.endpoint LIMIT ?")) {
            int i = bind(ps, args);
            if (after.isPresent()) {
                ps.setLong(i++, after.get().seq());
                ps.setLong(i++, after.get().seq());
                ps.setString(i++, after.get().endpoint());
            }
            ps.setInt(i, limit);
            try (ResultSet rs = ps.executeQuery()) {
                List<Listed> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(new Listed(rs.getString(9), event(rs), Status.fromDb(rs.getString(10)).orElseThrow(),
                            rs.getInt(11), SqlTime.get(rs, 12), rs.getString(13)));
                }
                return rows;
            }
        }
    }

    /** Marks the pending or failed deliveries matching {@code filter} discarded, with {@code note}; returns how many. */
    public int discard(Connection c, Filter filter, String note, Instant now) throws SQLException {
        List<Object> args = new ArrayList<>();
        String where = where(filter, args);
        try (PreparedStatement ps = c.prepareStatement("UPDATE event_delivery d JOIN event_outbox o ON o.seq = d.seq"
                + " SET d.status = 'discarded', d.done_at = ?, d.last_reply = ?" + where
                + (filter.status().isPresent() ? "" : " AND d.status IN ('pending', 'failed')"))) {
            SqlTime.set(ps, 1, now);
            ps.setString(2, Sql.truncate(note, 1000));
            int i = 3;
            for (Object a : args) {
                bindOne(ps, i++, a);
            }
            return ps.executeUpdate();
        }
    }

    private static String where(Filter f, List<Object> args) {
        List<String> parts = new ArrayList<>();
        f.endpoint().ifPresent(e -> {
            parts.add("d.endpoint = ?");
            args.add(e);
        });
        f.status().ifPresent(s -> {
            parts.add("d.status = ?");
            args.add(s.dbValue());
        });
        f.typePrefix().ifPresent(t -> {
            if (t.endsWith("*")) {
                parts.add("o.type LIKE ?");
                args.add(t.substring(0, t.length() - 1).replace("_", "\\_") + "%");
            } else {
                parts.add("o.type = ?");
                args.add(t);
            }
        });
        f.before().ifPresent(b -> {
            parts.add("o.occurred_at < ?");
            args.add(b);
        });
        return parts.isEmpty() ? " WHERE 1 = 1" : " WHERE " + String.join(" AND ", parts);
    }

    private static int bind(PreparedStatement ps, List<Object> args) throws SQLException {
        int i = 1;
        for (Object a : args) {
            bindOne(ps, i++, a);
        }
        return i;
    }

    private static void bindOne(PreparedStatement ps, int i, Object a) throws SQLException {
        if (a instanceof Instant t) {
            SqlTime.set(ps, i, t);
        } else {
            ps.setString(i, (String) a);
        }
    }

    /** Pending deliveries per endpoint and the time of the oldest event among them. */
    public record Backlog(long pending, Optional<Instant> oldest) {}

    public Map<String, Backlog> backlog(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT d.endpoint, COUNT(*), MIN(o.occurred_at) FROM event_delivery d JOIN event_outbox o ON o.seq = d.seq
                WHERE d.status = 'pending' GROUP BY d.endpoint""");
             ResultSet rs = ps.executeQuery()) {
            Map<String, Backlog> m = new LinkedHashMap<>();
            while (rs.next()) {
                m.put(rs.getString(1), new Backlog(rs.getLong(2), Optional.ofNullable(SqlTime.get(rs, 3))));
            }
            return m;
        }
    }
}
