package dev.mailrun.campaign.store.audience;

import dev.mailrun.campaign.model.SubscriberEventKind;
import dev.mailrun.campaign.store.audience.SubscriberEventTable.NewEvent;
import dev.mailrun.campaign.store.audience.SubscriptionTable.Held;
import dev.mailrun.campaign.store.audience.SubscriptionTable.State;
import dev.mailrun.events.EventOutbox;
import dev.mailrun.events.EventType;
import dev.mailrun.events.OutboxEvent;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The outbox events of the audience's changes (docs/EVENTS.md), written beside the history that
 * records them, in its transaction: whatever makes the change (an operator, the API, an import, a
 * bounce, an unsubscribe) writes its history through {@link SubscriberEventTable#write}, which hands
 * it here. For a whole import batch this is one read of the endpoints' types, and — only when some
 * endpoint takes an audience type — one read of the addresses, one of the subscriptions' states and
 * one multi-row insert: never a statement per subscriber.
 */
final class SubscriberOutbox {

    private final EventOutbox outbox = new EventOutbox();
    private final SubscriberTable subscribers = new SubscriberTable();
    private final SubscriptionTable subscriptions = new SubscriptionTable();

    void write(Connection c, List<NewEvent> history, Instant now) throws SQLException {
        if (history.isEmpty()) {
            return;
        }
        Set<String> taken = outbox.takenTypes(c);
        List<NewEvent> told = history.stream().filter(e -> type(e).filter(t -> taken.contains(t.wireName())).isPresent()).toList();
        if (told.isEmpty()) {
            return;
        }
        Map<Long, String> emails = subscribers.emails(c, told.stream().map(NewEvent::subscriberId).distinct().toList());
        Map<Held, State> states = new HashMap<>();
        List<Held> pairs = told.stream().filter(e -> type(e).orElseThrow() == EventType.SUBSCRIPTION_CHANGED)
                .map(e -> new Held(e.subscriberId(), e.listId())).distinct().toList();
        for (State s : subscriptions.states(c, pairs)) {
            states.put(new Held(s.subscriberId(), s.listId()), s);
        }
        List<OutboxEvent> events = new ArrayList<>();
        for (NewEvent e : told) {
            EventType type = type(e).orElseThrow();
            String email = emails.get(e.subscriberId());
            if (type == EventType.SUBSCRIPTION_CHANGED) {
                State s = states.get(new Held(e.subscriberId(), e.listId()));
                events.add(OutboxEvent.of(type, null, null, email, OutboxEvent.fields("subscriber_id", e.subscriberId(),
                        "list_id", e.listId(), "list", s == null ? null : s.listName(),
                        "status", s == null ? fallbackStatus(e.kind()) : s.status().dbValue(),
                        "source", s == null ? null : s.source().dbValue(), "detail", e.detail())));
            } else {
                events.add(OutboxEvent.of(type, null, null, email, OutboxEvent.fields("subscriber_id", e.subscriberId(),
                        "status", e.kind() == SubscriberEventKind.UNBLOCKLISTED ? "enabled" : null, "detail", e.detail())));
            }
        }
        outbox.writeTaken(c, taken, events, now);
    }

    /** {@code subscriber.deleted}: written by the transaction deleting the subscriber, whose history goes with it. */
    void deleted(Connection c, long id, String email, String detail, Instant now) throws SQLException {
        outbox.write(c, List.of(OutboxEvent.of(EventType.SUBSCRIBER_DELETED, null, null, email,
                OutboxEvent.fields("subscriber_id", id, "detail", detail))), now);
    }

    /** The outbox type of a history event; empty for a kind receivers are not told of. */
    static Optional<EventType> type(NewEvent e) {
        return Optional.ofNullable(switch (e.kind()) {
            case CREATED, IMPORTED -> EventType.SUBSCRIBER_CREATED;
            case UPDATED, UNBLOCKLISTED -> EventType.SUBSCRIBER_UPDATED;
            case SUBSCRIBED, CONFIRMED, UNSUBSCRIBED -> e.listId() == null ? null : EventType.SUBSCRIPTION_CHANGED;
            case BLOCKLISTED -> EventType.SUBSCRIBER_BLOCKLISTED;
        });
    }

    /** A subscription's status after an event of this kind, for one no longer found (its list deleted meanwhile). */
    private static String fallbackStatus(SubscriberEventKind kind) {
        return switch (kind) {
            case UNSUBSCRIBED -> "unsubscribed";
            case CONFIRMED -> "confirmed";
            default -> null;
        };
    }
}
