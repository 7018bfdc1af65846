package dev.mailrun.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberForm;
import dev.mailrun.campaign.audience.Subscribers;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.events.store.DeliveryTable.StoredEvent;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.Subscribed;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The audience's events as receivers get them conform to their schemas in the contract (docs/api/openapi.yaml). */
class AudienceEventPayloadsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-12-07T10:00:00Z");

    @Test
    void every_audience_event_conforms_to_its_schema_and_a_wrong_one_does_not() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
            s.execute("DELETE FROM suppression");
            s.execute("DELETE FROM event_outbox WHERE type LIKE 'subscri%'");
        }
        Subscribed.toEverything(db.dataSource());
        new Lists(db.dataSource(), clock).create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.DOUBLE));
        Subscribers subscribers = new Subscribers(db.dataSource(), clock, AddressFilter.none());
        subscribers.upsert(new SubscriberForm("ann@example.com", Optional.of("Ann"), Optional.of(Map.of("plan", "pro")), List.of("news")),
                SubscriptionSource.API);
        subscribers.upsert(new SubscriberForm("ann@example.com", Optional.of("Ann B"), Optional.empty(), List.of()), SubscriptionSource.API);
        subscribers.blocklist("ann@example.com", SubscriptionSource.OPERATOR);
        subscribers.unblocklist("ann@example.com", SubscriptionSource.OPERATOR);
        subscribers.delete("ann@example.com", SubscriptionSource.OPERATOR);

        List<StoredEvent> stored = stored();
        assertThat(stored).extracting(StoredEvent::type).containsExactly("subscriber.created", "subscription.changed",
                "subscriber.updated", "subscription.changed", "subscriber.blocklisted", "subscriber.updated", "subscriber.deleted");
        for (StoredEvent e : stored) {
            String body = new String(Payloads.body(List.of(e), true, Map.of(), false), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(EventSchemas.problems(body)).as(body).isEmpty();
        }
        String batch = new String(Payloads.body(stored, false, Map.of(), false), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(EventSchemas.problems(batch)).as(batch).isEmpty();
        String changed = new String(Payloads.body(List.of(stored.get(1)), true, Map.of(), false), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(EventSchemas.problems(changed.replace("\"status\":\"unconfirmed\"", "\"status\":\"gone\""))).isNotEmpty();
    }

    private static List<StoredEvent> stored() throws Exception {
        List<StoredEvent> events = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT seq, event_id, type, email, data FROM event_outbox WHERE type LIKE 'subscri%' ORDER BY seq")) {
            while (rs.next()) {
                events.add(new StoredEvent(rs.getLong(1), rs.getString(2), rs.getString(3), null, null, rs.getString(4),
                        java.time.Instant.parse("2026-12-07T10:00:00Z"), rs.getString(5)));
            }
        }
        return events;
    }
}
