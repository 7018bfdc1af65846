package dev.mailrun.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.events.store.OutboxTable;
import dev.mailrun.events.store.SubscriptionTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Writes events into the outbox in the caller's transaction, beside the change they report: the
 * change and its event commit together or not at all. Many events are one multi-row INSERT, so a
 * flush of results adds one statement (the insert; a run reads the subscriptions once, {@link TakenTypes}), never one per recipient.
 * Which endpoint gets which event is decided later, by the dispatcher ({@link Dispatcher}).
 */
public final class EventOutbox {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final OutboxTable table = new OutboxTable();
    private final SubscriptionTable subscriptions = new SubscriptionTable();

    /**
     * Writes those of {@code events} whose type some endpoint takes ({@link Subscriptions}): with no
     * endpoint, nothing. The subscriptions are read in the caller's transaction (one small statement
     * per call, never per event).
     */
    public void write(Connection c, Collection<OutboxEvent> events, Instant now) throws SQLException {
        if (events.isEmpty()) {
            return;
        }
        insert(c, subscriptions.types(c), events, now);
    }

    /**
     * The types some endpoint takes, read in the caller's transaction: for a caller with an event per
     * recipient, which then makes only the events of these types (each has a random id, so one
     * per recipient that no endpoint takes is work for nothing) and writes them with {@link #writeTaken}.
     */
    public Set<String> takenTypes(Connection c) throws SQLException {
        return subscriptions.types(c);
    }

    /** {@link #write} with the types {@link #takenTypes} read in this transaction: only events of those are written. */
    public void writeTaken(Connection c, Set<String> taken, Collection<OutboxEvent> events, Instant now) throws SQLException {
        insert(c, taken, events, now);
    }

    private void insert(Connection c, Set<String> taken, Collection<OutboxEvent> events, Instant now) throws SQLException {
        List<OutboxTable.NewRow> rows = events.stream().filter(e -> taken.contains(e.type().wireName()))
                .map(e -> new OutboxTable.NewRow(e.id(), e.type().wireName(), e.campaignId(), e.recipientId(), e.email(), json(e)))
                .toList();
        if (!rows.isEmpty()) {
            table.insert(c, rows, now);
        }
    }

    private static String json(OutboxEvent e) {
        try {
            return e.data().isEmpty() ? null : JSON.writeValueAsString(e.data());
        } catch (JsonProcessingException x) {
            throw new IllegalArgumentException("event " + e.type().wireName() + " has a field JSON cannot hold", x);
        }
    }

    /**
     * An erasure (docs/ERASURE.md), in the caller's transaction: the events about the address whose
     * lower-cased form is {@code emailKey} lose their address and fields, delivered or not. Returns how many.
     */
    public int erase(Connection c, String emailKey) throws SQLException {
        return table.erase(c, emailKey);
    }
}
