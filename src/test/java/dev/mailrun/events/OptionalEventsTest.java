package dev.mailrun.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.store.recipient.RecipientFields;
import dev.mailrun.events.delivery.Endpoint;
import dev.mailrun.events.delivery.SigningSecret;
import dev.mailrun.events.delivery.TypeFilter;
import dev.mailrun.events.delivery.WebhookClient;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the outbox writes follows the endpoints: nothing a configured endpoint does not take,
 * optional types (recipient.deferred, run.finished) only for an endpoint that names them, and an
 * endpoint added later gets the events written from then on (a replay the older ones its types
 * take, where some endpoint had them written). A campaign through a scripted relay that defers one
 * recipient twice; deliveries to real receivers, checked against the contract's schemas.
 */
class OptionalEventsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(10);

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-26T10:00:00Z"), Duration.ofMillis(1));

    @Test
    void optional_types_go_only_where_named_and_an_endpoint_added_later_gets_events_from_then_on() throws Exception {
        AtomicInteger tries = new AtomicInteger();
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .on("RCPT", cmd -> cmd.argument().contains("r1@") && tries.incrementAndGet() <= 2
                        ? Reply.of(451, "4.7.1 greylisted") : Reply.ok())
                .start();
             SendingHarness h = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL,
                     SendSettingsFixtures.builder().retries(5, Duration.ofSeconds(30)).through("relay-optional", 0), "w1");
             Receiver all = new Receiver(); Receiver named = new Receiver(); WebhookClient client = new WebhookClient(clock)) {
            Endpoint everything = endpoint("all", all, "*");
            Endpoint optional = endpoint("named", named, "recipient.sent,recipient.deferred,run.finished");
            Dispatcher before = dispatcher(client, everything);
            before.pass();

            long id = h.campaigns.create(new NewCampaign("Optional", "welcome", "news@sender.example", Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
            CampaignFixtures.recipients(db.dataSource(), id, 5);
            h.campaigns.start(id);
            tick(h);                                   // r1 deferred; no endpoint names the optional types yet
            before.pass();
            assertThat(types()).doesNotContain("recipient.deferred", "run.finished").contains("recipient.sent");

            // The configuration gains an endpoint naming the optional types; the worker restarts with it.
            Dispatcher after = dispatcher(client, everything, optional);
            after.pass();
            clock.advance(Duration.ofSeconds(40));
            tick(h);                                   // r1 deferred again: now written, for "named" only
            clock.advance(Duration.ofSeconds(40));
            for (int i = 0; i < 5 && h.campaigns.get(id).status() != CampaignStatus.COMPLETED; i++) {
                tick(h);
            }
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            after.pass();

            assertThat(all.accepted()).extracting(Receiver.Got::type).doesNotContain("recipient.deferred", "run.finished")
                    .contains("campaign.started", "campaign.completed");
            assertThat(all.accepted().stream().filter(g -> g.type().equals("recipient.sent")).count()).isEqualTo(5);
            List<Receiver.Got> got = named.accepted();
            assertThat(got).extracting(Receiver.Got::type).as("from the moment it was added: r1's second deferral, its send, two runs")
                    .containsExactlyInAnyOrder("recipient.deferred", "recipient.sent", "run.finished", "run.finished");
            Receiver.Got deferred = got.stream().filter(g -> g.type().equals("recipient.deferred")).findFirst().orElseThrow();
            assertThat(deferred.data().get("email").asText()).isEqualTo("r1@list.example");
            assertThat(deferred.data().get("smtp_code").asInt()).isEqualTo(451);
            assertThat(deferred.data().get("next_attempt_at").asText()).isNotEmpty();
            List<Receiver.Got> runs = got.stream().filter(g -> g.type().equals("run.finished")).toList();
            assertThat(runs).extracting(g -> g.data().get("deferred").asLong() + "/" + g.data().get("sent").asLong() + "/"
                    + g.data().get("completed").asBoolean()).containsExactly("1/0/false", "0/1/true");
            for (String body : concat(all.bodies(), named.bodies())) {
                assertThat(EventSchemas.problems(body)).as(body).isEmpty();
            }

            // A replay gives "named" the earlier events its types take that were written (the four sends
            // "all" had), never the first deferral, which no endpoint took when it happened.
            long replayed = new EventLog(db.dataSource(), settings(everything, optional), clock)
                    .replay("named", Instant.parse("2026-11-26T00:00:00Z"), "test", "backfill the new endpoint");
            after.pass();
            assertThat(replayed).as("5 sends, the second deferral, 2 runs").isEqualTo(8);
            assertThat(named.accepted().stream().filter(g -> g.type().equals("recipient.sent")).map(Receiver.Got::id).distinct())
                    .hasSize(5);
            assertThat(named.accepted().stream().filter(g -> g.type().equals("recipient.deferred")).map(Receiver.Got::id).distinct())
                    .hasSize(1);
            assertThat(named.badSignatures()).isEmpty();
        }
    }

    @Test
    void with_no_endpoint_configured_a_campaign_writes_no_event() throws Exception {
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().start();
             SendingHarness h = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL,
                     SendSettingsFixtures.defaults("relay-none", 0), "w1");
             WebhookClient client = new WebhookClient(clock)) {
            dispatcher(client).pass();
            long id = h.campaigns.create(new NewCampaign("Nobody listens", "welcome", "news@sender.example", Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
            CampaignFixtures.recipients(db.dataSource(), id, 3);
            h.campaigns.start(id);
            for (int i = 0; i < 3 && h.campaigns.get(id).status() != CampaignStatus.COMPLETED; i++) {
                tick(h);
            }
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            assertThat(smtp.messages()).hasSize(3);
            assertThat(typesOf(id)).isEmpty();
        }
    }

    private Endpoint endpoint(String name, Receiver r, String types) {
        return new Endpoint(name, URI.create(r.url()), SigningSecret.parse(Receiver.SECRET), TypeFilter.parse(types), 10,
                Duration.ofSeconds(5), Duration.ofDays(3), true, true);
    }

    private static EventsSettings settings(Endpoint... endpoints) {
        return new EventsSettings(List.of(endpoints), false, Duration.ofSeconds(1), Duration.ofDays(30));
    }

    private Dispatcher dispatcher(WebhookClient client, Endpoint... endpoints) {
        return new Dispatcher(db.dataSource(), settings(endpoints), clock, client, new RecipientFields(), DeliveryListener.NONE,
                new Random(3));
    }

    private void tick(SendingHarness h) throws Exception {
        h.scheduler.tick();
        long ms = INTERVAL.toMillis();
        clock.set(Instant.ofEpochMilli((clock.peek().toEpochMilli() / ms + 1) * ms));
    }

    private static List<String> types() throws Exception {
        return query("SELECT type FROM event_outbox ORDER BY seq", null);
    }

    private static List<String> typesOf(long campaign) throws Exception {
        return query("SELECT type FROM event_outbox WHERE campaign_id = ?", campaign);
    }

    private static List<String> query(String sql, Long param) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            if (param != null) {
                ps.setLong(1, param);
            }
            try (ResultSet rs = ps.executeQuery()) {
                List<String> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
                return out;
            }
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
