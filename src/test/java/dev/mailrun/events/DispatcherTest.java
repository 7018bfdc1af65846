package dev.mailrun.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.db.Transactions;
import dev.mailrun.events.delivery.Endpoint;
import dev.mailrun.events.delivery.SigningSecret;
import dev.mailrun.events.delivery.TypeFilter;
import dev.mailrun.events.delivery.WebhookClient;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.Subscribed;
import dev.mailrun.testing.TestDatabase;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The dispatcher against a real receiver over HTTP: signed, in order, retried, refused, disabled, never twice at once. */
class DispatcherTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-26T12:00:00Z");
    private Receiver receiver;
    private WebhookClient client;

    @BeforeEach
    void start() throws Exception {
        receiver = new Receiver();
        client = new WebhookClient(clock);
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        receiver.close();
    }

    @Test
    void written_events_are_delivered_signed_in_order_with_their_ids_and_fields() throws Exception {
        Endpoint crm = endpoint("crm-a", 100, true);
        List<OutboxEvent> written = new ArrayList<>();
        for (long r = 1; r <= 3; r++) {
            written.add(OutboxEvent.of(EventType.RECIPIENT_SENT, 7L, r, null, OutboxEvent.fields("message_id", "<m" + r + "@x>")));
        }
        written.add(OutboxEvent.of(EventType.CAMPAIGN_COMPLETED, 7L, null, null, OutboxEvent.fields("status", "completed")));
        write(written);
        RecipientLookup lookup = (c, ids) -> Map.of(1L, new RecipientLookup.Recipient("one@list.example", Map.of("crm_id", "A-1")),
                2L, new RecipientLookup.Recipient("two@list.example", Map.of()), 3L, new RecipientLookup.Recipient("three@list.example", Map.of()));

        long delivered = dispatcher(new EventsSettings(List.of(crm), true, Duration.ofSeconds(1), Duration.ofDays(30)), lookup).pass();

        assertThat(delivered).isEqualTo(4);
        assertThat(receiver.badSignatures()).isEmpty();
        assertThat(receiver.accepted()).extracting(Receiver.Got::id).containsExactlyElementsOf(written.stream().map(OutboxEvent::id).toList());
        Receiver.Got first = receiver.accepted().get(0);
        assertThat(first.type()).isEqualTo("recipient.sent");
        assertThat(first.data().get("email").asText()).isEqualTo("one@list.example");
        assertThat(first.data().get("campaign_id").asLong()).isEqualTo(7);
        assertThat(first.data().get("message_id").asText()).isEqualTo("<m1@x>");
        assertThat(first.data().get("fields").get("crm_id").asText()).isEqualTo("A-1");
        assertThat(statuses("crm-a")).containsOnly("delivered");
    }

    @Test
    void a_receiver_down_for_a_while_gets_everything_afterwards_in_order_per_recipient_each_id_applied_once() throws Exception {
        Endpoint crm = endpoint("crm-b", 3, true);
        List<OutboxEvent> written = new ArrayList<>();
        for (long r = 1; r <= 4; r++) {
            written.add(OutboxEvent.of(EventType.RECIPIENT_SENT, 8L, r, "r" + r + "@list.example", Map.of()));
        }
        for (long r = 1; r <= 4; r++) {
            written.add(OutboxEvent.of(EventType.RECIPIENT_BOUNCED, 8L, r, "r" + r + "@list.example", Map.of("bounce", "hard")));
        }
        write(written);
        Dispatcher d = dispatcher(settings(crm), RecipientLookup.NONE);
        receiver.answer(503, null);

        d.pass();
        int tried = receiver.requests();
        d.pass();
        assertThat(receiver.requests()).as("backing off: no attempt before the delay").isEqualTo(tried);
        for (int i = 0; i < 5; i++) {
            clock.advance(Duration.ofMinutes(10));
            d.pass();
        }
        assertThat(receiver.accepted()).isEmpty();
        assertThat(statuses("crm-b")).containsOnly("pending");

        receiver.answer(200, null);
        clock.advance(Duration.ofHours(2));
        d.pass();

        assertThat(receiver.applied()).containsExactlyInAnyOrderElementsOf(written.stream().map(OutboxEvent::id).toList());
        for (long r = 1; r <= 4; r++) {
            long recipient = r;
            assertThat(receiver.accepted().stream().filter(g -> g.data().get("recipient_id").asLong() == recipient)
                    .map(Receiver.Got::type).toList()).containsExactly("recipient.sent", "recipient.bounced");
        }
        assertThat(statuses("crm-b")).containsOnly("delivered");
    }

    @Test
    void a_429_is_tried_again_no_sooner_than_its_retry_after() throws Exception {
        Endpoint crm = endpoint("crm-c", 10, true);
        write(List.of(OutboxEvent.of(EventType.CAMPAIGN_PAUSED, 9L, null, null, Map.of("reason", "operator"))));
        Dispatcher d = dispatcher(settings(crm), RecipientLookup.NONE);
        receiver.answer(429, "120");
        d.pass();
        receiver.answer(200, null);
        clock.advance(Duration.ofSeconds(110));
        d.pass();
        assertThat(receiver.accepted()).isEmpty();
        clock.advance(Duration.ofSeconds(11));
        d.pass();
        assertThat(receiver.accepted()).hasSize(1);
    }

    @Test
    void a_410_or_400_ends_the_delivery_as_failed_with_the_reply_and_later_events_go_on() throws Exception {
        Endpoint crm = endpoint("crm-d", 1, true);
        write(List.of(OutboxEvent.of(EventType.RECIPIENT_SENT, 10L, 1L, "a@list.example", Map.of())));
        Dispatcher d = dispatcher(settings(crm), RecipientLookup.NONE);
        receiver.answer(410, null);
        d.pass();
        write(List.of(OutboxEvent.of(EventType.RECIPIENT_SENT, 10L, 2L, "b@list.example", Map.of())));
        receiver.answer(400, null);
        d.pass();
        clock.advance(Duration.ofDays(1));
        d.pass();
        assertThat(receiver.requests()).as("no retry of a refused delivery").isEqualTo(2);
        assertThat(rows("SELECT CONCAT(status, ' ', attempts, ' ', last_reply) FROM event_delivery WHERE endpoint = ? ORDER BY seq", "crm-d"))
                .containsExactly("failed 1 HTTP 410: answer 410", "failed 1 HTTP 400: answer 400");

        receiver.answer(200, null);
        write(List.of(OutboxEvent.of(EventType.RECIPIENT_SENT, 10L, 3L, "c@list.example", Map.of())));
        d.pass();
        assertThat(receiver.accepted()).extracting(g -> g.data().get("email").asText()).containsExactly("c@list.example");
    }

    @Test
    void an_endpoint_failing_past_disable_after_is_disabled_with_an_event_and_delivers_again_once_enabled() throws Exception {
        try (Receiver opsReceiver = new Receiver()) {
            Endpoint crm = endpoint("crm-e", 10, true);
            Endpoint ops = new Endpoint("ops-e", URI.create(opsReceiver.url()), SigningSecret.parse(Receiver.SECRET),
                    TypeFilter.parse("endpoint.*"), 10, Duration.ofSeconds(2), Duration.ofDays(3), true, true);
            write(List.of(OutboxEvent.of(EventType.RECIPIENT_SENT, 11L, 1L, "a@list.example", Map.of())));
            EventsSettings settings = new EventsSettings(List.of(crm, ops), false, Duration.ofSeconds(1), Duration.ofDays(30));
            Dispatcher d = dispatcher(settings, RecipientLookup.NONE);
            receiver.answer(500, null);
            for (int hour = 0; hour < 80; hour++) {
                d.pass();
                clock.advance(Duration.ofHours(1));
            }
            assertThat(rows("SELECT CONCAT(disabled_at IS NOT NULL, ' ', last_error) FROM event_endpoint WHERE name = ?", "crm-e"))
                    .containsExactly("1 HTTP 500: answer 500");
            assertThat(statuses("crm-e")).as("nothing dropped").startsWith("pending");
            assertThat(opsReceiver.accepted()).as("the other endpoint hears of it").singleElement()
                    .satisfies(g -> {
                        assertThat(g.type()).isEqualTo("endpoint.disabled");
                        assertThat(g.data().get("endpoint").asText()).isEqualTo("crm-e");
                    });

            receiver.answer(200, null);
            int before = receiver.requests();
            d.pass();
            assertThat(receiver.requests()).as("disabled: no attempt").isEqualTo(before);
            EventLog log = new EventLog(db.dataSource(), settings, clock);
            assertThat(log.enable("crm-e", "ops@example", "receiver fixed")).isTrue();
            d.pass();
            assertThat(receiver.accepted()).extracting(Receiver.Got::type).containsExactly("recipient.sent", "endpoint.disabled");
            assertThat(rows("SELECT CONCAT(action, ' ', actor, ' ', why) FROM event_audit WHERE endpoint = ?", "crm-e"))
                    .containsExactly("enable ops@example receiver fixed");
        }
    }

    @Test
    void two_workers_never_deliver_the_same_batch_at_once_and_each_event_arrives_once() throws Exception {
        Endpoint crm = endpoint("crm-f", 7, true);
        List<OutboxEvent> written = new ArrayList<>();
        for (long r = 1; r <= 300; r++) {
            written.add(OutboxEvent.of(EventType.RECIPIENT_SENT, 12L, r, "r" + r + "@list.example", Map.of()));
        }
        write(written);
        Dispatcher one = dispatcher(settings(crm), RecipientLookup.NONE);
        Dispatcher two = dispatcher(settings(crm), RecipientLookup.NONE);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 20 && receiver.accepted().size() < written.size(); round++) {
                Future<Long> a = pool.submit(one::pass);
                Future<Long> b = pool.submit(two::pass);
                a.get();
                b.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(receiver.maxInFlight()).as("one request to the endpoint at a time").isEqualTo(1);
        assertThat(receiver.accepted()).hasSize(written.size());
        assertThat(receiver.accepted()).extracting(Receiver.Got::id).containsExactlyElementsOf(written.stream().map(OutboxEvent::id).toList());
    }

    @Test
    void a_worker_that_lost_its_lease_while_sending_records_nothing_and_the_next_holder_sends_the_same_ids_again() throws Exception {
        Endpoint crm = endpoint("crm-i", 10, true);
        List<OutboxEvent> written = List.of(
                OutboxEvent.of(EventType.RECIPIENT_SENT, 15L, 1L, "a@list.example", Map.of()),
                OutboxEvent.of(EventType.RECIPIENT_SENT, 15L, 2L, "b@list.example", Map.of()));
        write(written);
        // As if the worker stalled (or died) between the endpoint's answer and its verdict: its lease runs out.
        receiver.onRequest(() -> {
            try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                    "UPDATE event_endpoint SET lease_until = UTC_TIMESTAMP(3) - INTERVAL 1 SECOND WHERE name = 'crm-i'")) {
                ps.executeUpdate();
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        dispatcher(settings(crm), RecipientLookup.NONE).pass();
        assertThat(statuses("crm-i")).as("no verdict without the lease").containsOnly("pending");

        receiver.onRequest(() -> {});
        dispatcher(settings(crm), RecipientLookup.NONE).pass();

        List<String> ids = written.stream().map(OutboxEvent::id).toList();
        assertThat(receiver.accepted()).extracting(Receiver.Got::id).containsExactlyElementsOf(
                java.util.stream.Stream.concat(ids.stream(), ids.stream()).toList());
        assertThat(receiver.applied()).as("applied once by a receiver deduplicating by id").containsExactlyInAnyOrderElementsOf(ids);
        assertThat(statuses("crm-i")).containsOnly("delivered");
    }

    @Test
    void an_endpoint_may_not_reach_a_loopback_address_unless_allowed() throws Exception {
        Endpoint guarded = endpoint("crm-g", 10, false);
        write(List.of(OutboxEvent.of(EventType.RECIPIENT_SENT, 13L, 1L, "a@list.example", Map.of())));
        dispatcher(settings(guarded), RecipientLookup.NONE).pass();
        assertThat(receiver.requests()).isZero();
        assertThat(rows("SELECT last_reply FROM event_delivery WHERE endpoint = ?", "crm-g"))
                .singleElement().asString().contains("resolves only to internal addresses");
    }

    @Test
    void a_receiver_that_does_not_answer_within_the_timeout_is_tried_again() throws Exception {
        Endpoint crm = new Endpoint("crm-h", URI.create(receiver.url()), SigningSecret.parse(Receiver.SECRET), TypeFilter.parse("*"),
                10, Duration.ofSeconds(1), Duration.ofDays(3), true, true);
        write(List.of(OutboxEvent.of(EventType.RECIPIENT_SENT, 14L, 1L, "a@list.example", Map.of())));
        Dispatcher d = dispatcher(settings(crm), RecipientLookup.NONE);
        receiver.hang();
        d.pass();
        receiver.release();
        assertThat(rows("SELECT CONCAT(status, ' ', last_reply) FROM event_delivery WHERE endpoint = ?", "crm-h"))
                .containsExactly("pending no answer within 1s");
        clock.advance(Duration.ofMinutes(1));
        d.pass();
        assertThat(statuses("crm-h")).containsOnly("delivered");
    }

    private Endpoint endpoint(String name, int batch, boolean allowPrivate) {
        return new Endpoint(name, URI.create(receiver.url()), SigningSecret.parse(Receiver.SECRET), TypeFilter.parse("*"),
                batch, Duration.ofSeconds(5), Duration.ofDays(3), true, allowPrivate);
    }

    private static EventsSettings settings(Endpoint e) {
        return new EventsSettings(List.of(e), false, Duration.ofSeconds(1), Duration.ofDays(30));
    }

    private Dispatcher dispatcher(EventsSettings settings, RecipientLookup lookup) {
        return new Dispatcher(db.dataSource(), settings, clock, client, lookup, DeliveryListener.NONE, new Random(1));
    }

    private void write(List<OutboxEvent> events) throws SQLException {
        Subscribed.toEverything(db.dataSource());
        Transactions.inTransaction(db.dataSource(), c -> {
            new EventOutbox().write(c, events, clock.instant());
            return null;
        });
    }

    private static List<String> statuses(String endpoint) throws SQLException {
        return rows("SELECT status FROM event_delivery WHERE endpoint = ? ORDER BY seq", endpoint);
    }

    private static List<String> rows(String sql, String param) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, param);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
