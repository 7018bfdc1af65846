package dev.mailrun.campaign.store.audience;

import dev.mailrun.campaign.model.SubscriberEventKind;
import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The subscriber_event table: a subscriber's history, only ever inserted. Every write also writes the
 * changes' outbox events in the caller's transaction ({@link SubscriberOutbox}).
 */
public final class SubscriberEventTable {

    /** The most events one insert carries; an import's batch writes a few per row. */
    private static final int ROWS_PER_INSERT = 2_500;
    private static final int MAX_DETAIL = 500;

    /** An event to write; {@code listId} the list it is about, or null. */
    public record NewEvent(long subscriberId, SubscriberEventKind kind, Long listId, String detail) {}

    /**
     * An event as stored. The kind is the stored text, not the enum: an event a newer version wrote
     * is still shown, never skipped. {@code listName} is empty once the list is deleted.
     */
    public record Stored(Instant at, String kind, Optional<String> listName, Optional<String> detail) {}

    private final SubscriberOutbox outbox = new SubscriberOutbox();

    /**
     * Writes the events, all at {@code at}, in as few statements as their number allows, and their
     * outbox events (subscriber.created, subscriber.updated, subscription.changed, subscriber.blocklisted).
     */
    public void write(Connection c, List<NewEvent> events, Instant at) throws SQLException {
        String literal = SqlTime.literal(at);
        for (int from = 0; from < events.size(); from += ROWS_PER_INSERT) {
            List<NewEvent> chunk = events.subList(from, Math.min(events.size(), from + ROWS_PER_INSERT));
            String row = ", (?, ?, ?, ?, ?)";
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO subscriber_event (subscriber_id, at, kind, list_id, detail) VALUES "
                    + row.substring(2) + row.repeat(chunk.size() - 1))) {
                int i = 1;
                for (NewEvent e : chunk) {
                    ps.setLong(i++, e.subscriberId());
                    ps.setString(i++, literal);
                    ps.setString(i++, e.kind().dbValue());
                    ps.setObject(i++, e.listId());
                    ps.setString(i++, Sql.truncate(e.detail(), MAX_DETAIL));
                }
                ps.executeUpdate();
            }
        }
        outbox.write(c, events, at);
    }

    /**
     * The {@code subscriber.deleted} event of a subscriber this transaction deletes (its history goes
     * with it): {@code detail} says by whom.
     */
    public void deleted(Connection c, long subscriberId, String email, String detail, Instant at) throws SQLException {
        outbox.deleted(c, subscriberId, email, detail, at);
    }

    /** The subscriber's newest {@code limit} events, newest first. */
    public List<Stored> history(Connection c, long subscriberId, int limit) throws SQLException {
        List<Stored> events = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT e.at, e.kind, l.name, e.detail
                FROM subscriber_event e LEFT JOIN subscriber_list l ON l.id = e.list_id
                WHERE e.subscriber_id = ? ORDER BY e.id DESC LIMIT ?""")) {
            ps.setLong(1, subscriberId);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    events.add(new Stored(SqlTime.get(rs, 1), rs.getString(2), Optional.ofNullable(rs.getString(3)),
                            Optional.ofNullable(rs.getString(4))));
                }
            }
        }
        return events;
    }
}
