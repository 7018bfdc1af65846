package dev.mailrun.campaign.store.recipient;

import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.campaign.store.Outcome;
import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import dev.mailrun.events.EventOutbox;
import dev.mailrun.events.EventType;
import dev.mailrun.events.OutboxEvent;
import dev.mailrun.events.TakenTypes;
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
import java.util.Set;

/**
 * Recording: a run's outcomes written back to the recipients' rows in batches, and what a dead run
 * had in flight turned unknown.
 *
 * <p>A recipient's row is written once per attempt, with its result: neither the claim nor the mark
 * before its message goes to SMTP writes it. What a run has marked and not yet recorded is kept in
 * {@link InFlightTable}, one row per campaign. Only one run of a campaign's task holds its lease; a
 * run that lost it may read the same rows as its successor, but its results ride in transactions
 * that also extend or checkpoint the task's lease, which fail without it and roll them back, and its
 * successor turns what it had in flight into unknown before claiming anything.
 */
public final class RecipientResults {

    private final EventOutbox events = new EventOutbox();
    private final StatusCountTable counts = new StatusCountTable();
    private final SentSecondTable sentSeconds = new SentSecondTable();

    /**
     * Writes the outcomes of a run's attempts: one batched statement per kind. Returns how many rows
     * changed; fewer than there are attempts (sent, failed, retry) means some of the campaign's rows
     * are gone (the campaign was deleted) and the caller must roll back. Recipients handed back
     * unsent ({@link Outcome.Released}) are not written: nothing was written to their rows when
     * they were claimed or marked, so they are in the queue as they were.
     *
     * <p>A row is found by its id alone, whatever its status: the run holds it (it is in the run's
     * {@link InFlightTable} row, and the caller's transaction is fenced by the run's lease), and a
     * bounce of an earlier attempt that failed the row meanwhile is overtaken by this attempt's outcome.
     *
     * <p>The events the outcomes report ({@code recipient.sent}, {@code recipient.failed}) go into the
     * outbox in the same transaction, as one multi-row INSERT: they commit with the results or not at all.
     * So do the campaign's status counts ({@link StatusCountTable}): the rows are read and locked by
     * id first (one statement per thousand), so the delta holds whatever status a row had.
     */
    public int record(Connection c, long campaignId, Collection<? extends Outcome> outcomes, Instant now) throws SQLException {
        return record(c, campaignId, outcomes, now, new TakenTypes());
    }

    /** As {@link #record(Connection, long, Collection, Instant)}, the event types some endpoint takes as a run read them. */
    public int record(Connection c, long campaignId, Collection<? extends Outcome> outcomes, Instant now, TakenTypes takenTypes)
            throws SQLException {
        Map<Class<?>, List<Outcome>> byKind = new HashMap<>();
        Map<Long, Outcome> attempts = new HashMap<>();
        for (Outcome o : outcomes) {
            byKind.computeIfAbsent(o.getClass(), k -> new ArrayList<>()).add(o);
            if (!(o instanceof Outcome.Released)) {
                attempts.put(o.recipientId(), o);
            }
        }
        List<StatusCountTable.Row> before = counts.lock(c, campaignId, attempts.keySet(), StatusCountTable.ANY);
        int changed = 0;
        changed += sent(c, campaignId, byKind.get(Outcome.Sent.class), now);
        changed += batch(c, byKind.get(Outcome.Retry.class), """
                UPDATE recipient SET status = 'retry', attempts = attempts + 1, next_attempt_at = ?, last_code = ?,
                       last_error = ?, relay = ?, updated_at = ?
                WHERE id = ? AND campaign_id = ?""", (ps, o) -> {
            Outcome.Retry r = (Outcome.Retry) o;
            SqlTime.set(ps, 1, r.nextAttemptAt());
            ps.setInt(2, r.code());
            ps.setString(3, Sql.truncate(r.error(), 1000));
            ps.setString(4, r.relay());
            SqlTime.set(ps, 5, now);
            ps.setLong(6, r.recipientId());
            ps.setLong(7, campaignId);
        });
        changed += batch(c, byKind.get(Outcome.Failed.class), """
                UPDATE recipient SET status = 'failed', attempts = attempts + 1, next_attempt_at = NULL, last_code = ?,
                       last_error = ?, relay = ?, updated_at = ?
                WHERE id = ? AND campaign_id = ?""", (ps, o) -> {
            Outcome.Failed f = (Outcome.Failed) o;
            ps.setInt(1, f.code());
            ps.setString(2, Sql.truncate(f.error(), 1000));
            ps.setString(3, f.relay());
            SqlTime.set(ps, 4, now);
            ps.setLong(5, f.recipientId());
            ps.setLong(6, campaignId);
        });
        if (!attempts.isEmpty()) {
            Set<String> taken = takenTypes.in(c);
            if (!taken.isEmpty()) {
                events.writeTaken(c, taken, events(campaignId, outcomes, taken), now);
            }
        }
        StatusCountTable.Delta delta = new StatusCountTable.Delta();
        List<Instant> sentAt = new ArrayList<>();
        for (StatusCountTable.Row r : before) {
            delta.add(r.status(), r.relay(), -1);
            Outcome o = attempts.get(r.id());
            if (o instanceof Outcome.Sent s) {
                delta.add("sent", s.relay(), 1);
                sentAt.add(s.at());
            } else if (o instanceof Outcome.Retry t) {
                delta.add("retry", t.relay(), 1);
            } else if (o instanceof Outcome.Failed f) {
                delta.add("failed", f.relay(), 1);
            }
        }
        counts.apply(c, campaignId, delta);
        sentSeconds.add(c, campaignId, sentAt);
        return changed;
    }

    /** The events of {@code outcomes} whose types are {@code taken}; none is made for a type no endpoint takes. */
    private static List<OutboxEvent> events(long campaignId, Collection<? extends Outcome> outcomes, Set<String> taken) {
        boolean sent = taken.contains(EventType.RECIPIENT_SENT.wireName());
        boolean failed = taken.contains(EventType.RECIPIENT_FAILED.wireName());
        boolean deferred = taken.contains(EventType.RECIPIENT_DEFERRED.wireName());
        List<OutboxEvent> list = new ArrayList<>();
        for (Outcome o : outcomes) {
            if (o instanceof Outcome.Sent s) {
                if (!sent) {
                    continue;
                }
                list.add(OutboxEvent.of(EventType.RECIPIENT_SENT, campaignId, s.recipientId(), null,
                        OutboxEvent.fields("message_id", s.messageId(), "relay", s.relay())));
            } else if (o instanceof Outcome.Failed f) {
                if (!failed) {
                    continue;
                }
                list.add(OutboxEvent.of(EventType.RECIPIENT_FAILED, campaignId, f.recipientId(), null,
                        OutboxEvent.fields("smtp_code", f.code(), "reply", f.error(), "relay", f.relay())));
            } else if (o instanceof Outcome.Retry r && deferred) {
                // Optional (off unless an endpoint names it).
                list.add(OutboxEvent.of(EventType.RECIPIENT_DEFERRED, campaignId, r.recipientId(), null,
                        OutboxEvent.fields("smtp_code", r.code(), "reply", r.error(), "relay", r.relay(),
                                "next_attempt_at", r.nextAttemptAt() == null ? null : r.nextAttemptAt().toString())));
            }
        }
        return list;
    }

    /** Rows per statement when recording sent recipients: a few thousand parameters at most. */
    private static final int SENT_ROWS_PER_STATEMENT = 500;

    /**
     * Sent recipients, the hot path: one UPDATE joined to the flush's rows (id, Message-ID, time)
     * instead of one UPDATE per recipient, which cost the database a statement per message.
     */
    private static int sent(Connection c, long campaignId, List<Outcome> outcomes, Instant now) throws SQLException {
        if (outcomes == null || outcomes.isEmpty()) {
            return 0;
        }
        int changed = 0;
        for (int from = 0; from < outcomes.size(); from += SENT_ROWS_PER_STATEMENT) {
            List<Outcome> chunk = outcomes.subList(from, Math.min(outcomes.size(), from + SENT_ROWS_PER_STATEMENT));
            String rows = "SELECT ? AS id, ? AS message_id, ? AS sent_at, ? AS relay"
                    + " UNION ALL SELECT ?, ?, ?, ?".repeat(chunk.size() - 1);
            // FORCE INDEX: rows are found by id, never by scanning the campaign, so the statement
            // locks only its own rows.
            try (PreparedStatement ps = c.prepareStatement("UPDATE recipient r FORCE INDEX (PRIMARY) JOIN (" + rows + ") v ON r.id = v.id "
                    + "SET r.status = 'sent', r.attempts = r.attempts + 1, r.sent_at = v.sent_at, r.message_id = v.message_id, r.relay = v.relay, "
                    + "r.last_code = NULL, r.last_error = NULL, r.next_attempt_at = NULL, r.updated_at = ? "
                    + "WHERE r.campaign_id = ?")) {
                int i = 1;
                for (Outcome o : chunk) {
                    Outcome.Sent sent = (Outcome.Sent) o;
                    ps.setLong(i++, sent.recipientId());
                    ps.setString(i++, sent.messageId());
                    SqlTime.set(ps, i++, sent.at());
                    ps.setString(i++, sent.relay());
                }
                SqlTime.set(ps, i++, now);
                ps.setLong(i, campaignId);
                changed += ps.executeUpdate();
            }
        }
        return changed;
    }

    @FunctionalInterface
    private interface Binder {
        void bind(PreparedStatement ps, Outcome o) throws SQLException;
    }

    private static int batch(Connection c, List<Outcome> outcomes, String sql, Binder binder) throws SQLException {
        if (outcomes == null || outcomes.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (Outcome o : outcomes) {
                binder.bind(ps, o);
                ps.addBatch();
            }
            int changed = 0;
            for (int n : ps.executeBatch()) {
                // With rewritten batches the driver may report SUCCESS_NO_INFO (-2) per row.
                changed += n == PreparedStatement.SUCCESS_NO_INFO ? 1 : n;
            }
            return changed;
        }
    }

    /**
     * Deletes the campaign's sent-per-second tallies before {@code before}: a run does it as it
     * begins, so the table holds about {@link SentSecondTable#KEPT} of each sending campaign.
     */
    public void forgetSentBefore(Connection c, long campaignId, Instant before) throws SQLException {
        sentSeconds.prune(c, campaignId, before);
    }

    /** Ids per statement when turning a dead run's recipients unknown, or recording them after all. */
    private static final int IDS_PER_STATEMENT = 1_000;

    /**
     * A run of the campaign's task died, failed or lost its lease with {@code inFlight} marked and
     * not recorded (its {@link InFlightTable} row): those still waiting become unknown, since their
     * messages may have been sent, in the name of {@code leftBy}, the run that held them (empty:
     * not known), which may still record what it knows of them ({@link #recordLeftUnknown}).
     * Returns how many did. By primary key, a bounded number of rows.
     */
    public int markUnknown(Connection c, long campaignId, Collection<Long> inFlight, Optional<String> leftBy, Instant now)
            throws SQLException {
        List<StatusCountTable.Row> waiting = counts.lock(c, campaignId, inFlight, List.of("pending", "retry"));
        List<Long> ids = waiting.stream().map(StatusCountTable.Row::id).toList();
        int unknown = 0;
        for (int from = 0; from < ids.size(); from += IDS_PER_STATEMENT) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + IDS_PER_STATEMENT));
            try (PreparedStatement ps = c.prepareStatement("UPDATE recipient FORCE INDEX (PRIMARY) SET status = 'unknown', "
                    + "unknown_run = ?, updated_at = ? WHERE id IN (" + Sql.placeholders(chunk.size())
                    + ") AND campaign_id = ? AND status IN ('pending', 'retry')")) {
                ps.setString(1, leftBy.orElse(null));
                SqlTime.set(ps, 2, now);
                int i = 3;
                for (long id : chunk) {
                    ps.setLong(i++, id);
                }
                ps.setLong(i, campaignId);
                unknown += ps.executeUpdate();
            }
        }
        counts.apply(c, campaignId, new StatusCountTable.Delta().move(waiting, "unknown"));
        return unknown;
    }

    /**
     * A run that lost its lease records what it knows after all: of {@code outcomes}, the sent and
     * the failed ones of rows still {@code unknown} in its own name ({@link #markUnknown} by its
     * successor) are written as {@link #record} writes them, with their events and status counts;
     * every other row — requeued, sent again, left unknown by another run — is not touched. A
     * transient failure is not written: it may be a reply that never came, which proves nothing, and
     * {@code retry} would send the row again without anyone asking. The rows are read and locked by
     * id first, so an operator's requeue either waits for this or comes first and wins. Returns how
     * many were recorded.
     */
    public int recordLeftUnknown(Connection c, long campaignId, String runToken, Collection<? extends Outcome> outcomes,
                                 Instant now) throws SQLException {
        Map<Long, Outcome> attempts = new HashMap<>();
        for (Outcome o : outcomes) {
            if (o instanceof Outcome.Sent || o instanceof Outcome.Failed) {
                attempts.put(o.recipientId(), o);
            }
        }
        List<Long> sorted = attempts.keySet().stream().sorted().toList();
        List<Outcome> ours = new ArrayList<>();
        for (int from = 0; from < sorted.size(); from += IDS_PER_STATEMENT) {
            List<Long> chunk = sorted.subList(from, Math.min(sorted.size(), from + IDS_PER_STATEMENT));
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM recipient FORCE INDEX (PRIMARY) WHERE id IN ("
                    + Sql.placeholders(chunk.size()) + ") AND campaign_id = ? AND status = 'unknown' AND unknown_run = ? "
                    + "ORDER BY id FOR UPDATE")) {
                int i = 1;
                for (long id : chunk) {
                    ps.setLong(i++, id);
                }
                ps.setLong(i++, campaignId);
                ps.setString(i, runToken);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ours.add(attempts.get(rs.getLong(1)));
                    }
                }
            }
        }
        return ours.isEmpty() ? 0 : record(c, campaignId, ours, now);
    }
}
