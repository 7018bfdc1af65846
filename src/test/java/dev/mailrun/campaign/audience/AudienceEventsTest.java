package dev.mailrun.campaign.audience;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.importing.ImportSettings;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.events.EventType;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.Subscribed;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audience's outbox events (docs/EVENTS.md): written from the domain with the history, in the
 * change's transaction, whoever makes the change — an operator, the API, an import.
 */
class AudienceEventsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.at("2026-12-07T10:00:00Z");
    private final Lists lists = new Lists(db.dataSource(), clock);
    private final Subscribers subscribers = new Subscribers(db.dataSource(), clock, AddressFilter.none());
    private final SubscriberImporter importer = new SubscriberImporter(db.dataSource(), clock, AddressFilter.none(),
            ImportSettings.defaults());

    @BeforeEach
    void empty() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
            s.execute("DELETE FROM suppression");
            s.execute("DELETE FROM event_outbox WHERE type LIKE 'subscri%'");
        }
        Subscribed.toEverything(db.dataSource());
        lists.create(new Lists.NewList("news", Optional.empty(), ListVisibility.PUBLIC, ListOptIn.SINGLE));
    }

    @Test
    void each_change_of_a_subscriber_writes_its_event_with_the_address_and_the_subscriber_id() throws Exception {
        long id = subscribers.upsert(new SubscriberForm("ann@example.com", Optional.of("Ann"), Optional.of(Map.of("plan", "pro")),
                List.of("news")), SubscriptionSource.API).subscriber().id();
        subscribers.change(id, new SubscriberPatch(Optional.of("Ann B"), Optional.empty(), Optional.empty()), SubscriptionSource.API);
        subscribers.blocklist("ann@example.com", SubscriptionSource.OPERATOR);
        subscribers.unblocklist("ann@example.com", SubscriptionSource.OPERATOR);
        subscribers.delete(id, SubscriptionSource.API);

        assertThat(events()).containsExactly(
                "subscriber.created ann@example.com {\"subscriber_id\":" + id + ",\"detail\":\"by api\"}",
                "subscription.changed ann@example.com {\"subscriber_id\":" + id + ",\"list_id\":" + listId()
                        + ",\"list\":\"news\",\"status\":\"confirmed\",\"source\":\"api\",\"detail\":\"list 'news', confirmed, by api\"}",
                "subscriber.updated ann@example.com {\"subscriber_id\":" + id + ",\"detail\":\"name by api\"}",
                "subscription.changed ann@example.com {\"subscriber_id\":" + id + ",\"list_id\":" + listId()
                        + ",\"list\":\"news\",\"status\":\"unsubscribed\",\"source\":\"api\",\"detail\":\"blocklisted\"}",
                "subscriber.blocklisted ann@example.com {\"subscriber_id\":" + id + ",\"detail\":\"by operator\"}",
                "subscriber.updated ann@example.com {\"subscriber_id\":" + id + ",\"status\":\"enabled\","
                        + "\"detail\":\"by operator; its subscriptions stay unsubscribed\"}",
                "subscriber.deleted ann@example.com {\"subscriber_id\":" + id + ",\"detail\":\"by api\"}");
    }

    @Test
    void an_import_writes_one_event_per_changed_row_with_its_batches_and_nothing_for_unchanged_rows() throws Exception {
        StringBuilder csv = new StringBuilder("email,plan\n");
        for (int i = 0; i < 700; i++) {
            csv.append("p").append(i).append("@example.com,pro\n");
        }
        Path file = dir.resolve("people.csv");
        Files.writeString(file, csv);
        importer.importCsv("news", ImportMode.ADD, file, Optional.empty(), n -> { });
        assertThat(count("subscriber.created")).isEqualTo(700);
        assertThat(count("subscription.changed")).isEqualTo(700);

        importer.importCsv("news", ImportMode.ADD, file, Optional.empty(), n -> { });
        assertThat(count("subscriber.created") + count("subscription.changed")).as("unchanged rows tell nothing").isEqualTo(1400);

        importer.importCsv("news", ImportMode.BLOCKLIST, file, Optional.empty(), n -> { });
        assertThat(count("subscriber.blocklisted")).isEqualTo(700);
        assertThat(count("subscription.changed")).isEqualTo(1400);
        assertThat(one("SELECT data FROM event_outbox WHERE type = 'subscriber.blocklisted' AND email = 'p3@example.com'"))
                .endsWith("\"detail\":\"by import, line 5 of people.csv\"}");
    }

    @Test
    void with_no_endpoint_taking_audience_events_none_is_written() throws Exception {
        Subscribed.to(db.dataSource(), Set.of(EventType.RECIPIENT_SENT));
        subscribers.upsert(new SubscriberForm("bob@example.com", Optional.empty(), Optional.empty(), List.of("news")),
                SubscriptionSource.API);
        subscribers.delete("bob@example.com", SubscriptionSource.OPERATOR);
        assertThat(events()).isEmpty();
    }

    private long listId() throws Exception {
        return Long.parseLong(one("SELECT id FROM subscriber_list WHERE name = 'news'"));
    }

    private static long count(String type) throws Exception {
        return Long.parseLong(one("SELECT COUNT(*) FROM event_outbox WHERE type = '" + type + "'"));
    }

    private static String one(String sql) throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static List<String> events() throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT type, email, data FROM event_outbox WHERE type LIKE 'subscri%' ORDER BY seq")) {
            while (rs.next()) {
                out.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3));
            }
        }
        return out;
    }
}
