package dev.mailrun.events;

import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.StatusCounts;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.bounce.BounceRateBreaker;
import dev.mailrun.campaign.bounce.BounceSettings;
import dev.mailrun.campaign.bounce.ComplaintRateBreaker;
import dev.mailrun.campaign.feedback.FeedbackApplier;
import dev.mailrun.campaign.feedback.FeedbackProcessor;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.recipient.RecipientFields;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTarget;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.events.delivery.Endpoint;
import dev.mailrun.events.delivery.SigningSecret;
import dev.mailrun.events.delivery.TypeFilter;
import dev.mailrun.events.delivery.WebhookClient;
import dev.mailrun.mail.feedback.FeedbackEvent;
import dev.mailrun.mail.feedback.Provider;
import dev.mailrun.mail.feedback.SendIds;
import dev.mailrun.mail.feedback.Verdict;
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
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A campaign through GreenMail, a complaint and hard bounces through a provider's webhook, a one-click
 * unsubscribe and a bounce-rate pause: the receiver, down for a while, gets exactly the events these
 * changes wrote, each signed, each recipient's in the order they happened.
 */
class EventsEndToEndTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final Duration INTERVAL = Duration.ofSeconds(10);

    @Test
    void the_changes_of_a_campaign_reach_the_receiver_as_exactly_their_events() throws Exception {
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-26T10:00:00Z"), Duration.ofMillis(2));
        OneRelaySettings settings = SendSettingsFixtures.builder().batchMax(100).through("test-relay", 0);
        BounceSettings bounces = new BounceSettings(3, 0.05, 4, 0.5);
        FeedbackProcessor feedback = new FeedbackProcessor(db.dataSource(), new FeedbackApplier(new SuppressionTable(), bounces),
                new BounceRateBreaker(db.dataSource(), bounces, clock), new ComplaintRateBreaker(db.dataSource(), bounces, clock), clock);
        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL, settings, "w1");
             Receiver receiver = new Receiver(); Receiver single = new Receiver(); WebhookClient client = new WebhookClient(clock)) {
            // 0. The worker's dispatcher starts: its endpoints' types are what the outbox writes from now on.
            Endpoint crm = new Endpoint("crm", URI.create(receiver.url()), SigningSecret.parse(Receiver.SECRET), TypeFilter.parse("*"),
                    25, Duration.ofSeconds(5), Duration.ofDays(3), true, true);
            // A second receiver takes one event per request: the other body shape of the contract.
            Endpoint one = new Endpoint("one", URI.create(single.url()), SigningSecret.parse(Receiver.SECRET), TypeFilter.parse("*"),
                    1, Duration.ofSeconds(5), Duration.ofDays(3), true, true);
            Dispatcher dispatcher = new Dispatcher(db.dataSource(), new EventsSettings(List.of(crm, one), true, Duration.ofSeconds(1),
                    Duration.ofDays(30)), clock, client, new RecipientFields(), DeliveryListener.NONE, new Random(7));
            dispatcher.pass();

            // 1. A campaign of 10 sent through GreenMail to the end.
            long sent = create(h, "Launch");
            CampaignFixtures.recipients(db.dataSource(), sent, 10);
            assertThat(h.campaigns.start(sent)).isEqualTo(CampaignStatus.RUNNING);
            for (int i = 0; i < 20 && h.campaigns.get(sent).status() != CampaignStatus.COMPLETED; i++) {
                h.scheduler.tick();
                clock.set(Instant.ofEpochMilli((clock.peek().toEpochMilli() / INTERVAL.toMillis() + 1) * INTERVAL.toMillis()));
            }
            assertThat(h.campaigns.get(sent).status()).isEqualTo(CampaignStatus.COMPLETED);
            Map<String, Long> ids = recipients(sent);

            // 2. Feedback on it: a complaint and a hard bounce by the provider's webhook, a one-click unsubscribe.
            feedback.apply(Provider.SES, Verdict.Accepted.of(List.of(
                    event("c-1", FeedbackEvent.Kind.COMPLAINT, "r1@list.example", sent, ids.get("r1@list.example")),
                    event("h-1", FeedbackEvent.Kind.HARD, "r3@list.example", sent, ids.get("r3@list.example")))));
            new Unsubscriber(db.dataSource(), new SuppressionTable(), clock)
                    .unsubscribe(new UnsubscribeTarget(sent, ids.get("r2@list.example"), "r2@list.example"));

            // 3. A running campaign whose hard bounces pass bounce.pause-rate: the breaker pauses it.
            long paused = create(h, "Breaker");
            insertSent(paused, List.of("p0@list.example", "p1@list.example", "p2@list.example", "p3@list.example"));
            assertThat(h.campaigns.start(paused)).isEqualTo(CampaignStatus.RUNNING);
            Map<String, Long> pids = recipients(paused);
            feedback.apply(Provider.SES, Verdict.Accepted.of(List.of(
                    event("h-2", FeedbackEvent.Kind.HARD, "p0@list.example", paused, pids.get("p0@list.example")),
                    event("h-3", FeedbackEvent.Kind.HARD, "p1@list.example", paused, pids.get("p1@list.example")))));
            assertThat(h.campaigns.get(paused).status()).isEqualTo(CampaignStatus.PAUSED);

            // 4. The receiver is down for a while, then takes everything.
            receiver.answer(503, null);
            dispatcher.pass();
            clock.advance(Duration.ofMinutes(5));
            dispatcher.pass();
            assertThat(receiver.accepted()).isEmpty();
            receiver.answer(200, null);
            clock.advance(Duration.ofHours(1));
            dispatcher.pass();

            assertThat(receiver.badSignatures()).isEmpty();
            List<Receiver.Got> got = receiver.accepted();
            assertThat(got).extracting(Receiver.Got::id).doesNotHaveDuplicates();
            assertThat(countByType(got, sent)).isEqualTo(Map.of("campaign.started", 1L, "recipient.sent", 10L,
                    "campaign.completed", 1L, "recipient.complained", 1L, "recipient.bounced", 1L, "recipient.unsubscribed", 1L));
            assertThat(countByType(got, paused)).isEqualTo(Map.of("campaign.started", 1L, "recipient.bounced", 2L, "campaign.paused", 1L));
            assertThat(got.stream().filter(g -> g.type().equals("recipient.suppressed")).map(g -> g.data().get("email").asText()
                    + " " + g.data().get("reason").asText()).toList()).containsExactlyInAnyOrder("r1@list.example complaint",
                    "r3@list.example hard_bounce", "r2@list.example unsubscribed", "p0@list.example hard_bounce", "p1@list.example hard_bounce");

            Receiver.Got pause = got.stream().filter(g -> g.type().equals("campaign.paused")).findFirst().orElseThrow();
            assertThat(pause.data().get("by").asText()).isEqualTo("mailrun");
            assertThat(pause.data().get("cause").asText()).isEqualTo("hard-bounce-rate");
            assertThat(pause.data().get("reason").asText()).contains("hard-bounce");
            Receiver.Got unsubscribed = got.stream().filter(g -> g.type().equals("recipient.unsubscribed")).findFirst().orElseThrow();
            assertThat(unsubscribed.data().get("method").asText()).isEqualTo("one-click");
            Receiver.Got bounced = got.stream().filter(g -> g.type().equals("recipient.bounced")
                    && g.data().get("campaign_id").asLong() == sent).findFirst().orElseThrow();
            assertThat(bounced.data().get("email").asText()).isEqualTo("r3@list.example");
            assertThat(bounced.data().get("bounce").asText()).isEqualTo("hard");
            assertThat(bounced.data().get("source").asText()).isEqualTo("ses");
            // Per recipient, in the order it happened: sent, then what the feedback said.
            for (String email : List.of("r1@list.example", "r3@list.example")) {
                long id = ids.get(email);
                assertThat(got.stream().filter(g -> g.data().has("recipient_id") && g.data().get("recipient_id").asLong() == id)
                        .map(Receiver.Got::type).findFirst()).contains("recipient.sent");
            }
            Receiver.Got firstSent = got.stream().filter(g -> g.type().equals("recipient.sent")).findFirst().orElseThrow();
            assertThat(firstSent.data().get("email").asText()).as("the address is read at delivery").endsWith("@list.example");

            // 5. Every body delivered, batched or one event each, is what the API contract's schemas describe.
            for (int i = 0; i < 20 && single.accepted().size() < got.size(); i++) {
                dispatcher.pass();
            }
            assertThat(single.accepted()).extracting(Receiver.Got::id).containsExactlyElementsOf(got.stream().map(Receiver.Got::id).toList());
            assertThat(receiver.bodies()).isNotEmpty();
            assertThat(single.bodies()).hasSize(got.size());
            for (String body : concat(receiver.bodies(), single.bodies())) {
                assertThat(EventSchemas.problems(body)).as(body).isEmpty();
            }
            // ... and the same check refuses a payload that departs from them.
            String aBounce = single.bodies().stream().filter(b -> b.contains("\"recipient.bounced\"")).findFirst().orElseThrow();
            assertThat(EventSchemas.problems(aBounce.replace("\"bounce\":\"hard\"", "\"bounce\":\"medium\""))).isNotEmpty();
            assertThat(EventSchemas.problems(aBounce.replace("\"type\":\"recipient.bounced\"", "\"type\":\"recipient.sent\"")))
                    .as("a bounce's fields under another type").isNotEmpty();
            assertThat(EventSchemas.problems(aBounce.replaceFirst("\"id\":\"[^\"]+\",", ""))).isNotEmpty();
            assertThat(EventSchemas.problems(receiver.bodies().get(0).replace("\"events\":[", "\"events\":[{\"id\":1},"))).isNotEmpty();
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static long create(SendingHarness h, String name) throws Exception {
        return h.campaigns.create(new NewCampaign(name, "welcome", "news@sender.example", Optional.of("Sender News"),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
    }

    private static FeedbackEvent event(String id, FeedbackEvent.Kind kind, String address, long campaign, long recipient) {
        return new FeedbackEvent(Provider.SES, id, kind, address, Optional.of(new SendIds(campaign, recipient)), Optional.empty(),
                kind == FeedbackEvent.Kind.HARD ? "5.1.1" : "", OptionalInt.empty(), "test " + kind);
    }

    private static Map<String, Long> countByType(List<Receiver.Got> got, long campaign) {
        return got.stream().filter(g -> g.data().has("campaign_id") && g.data().get("campaign_id").asLong() == campaign)
                .collect(Collectors.groupingBy(Receiver.Got::type, Collectors.counting()));
    }

    private static Map<String, Long> recipients(long campaign) throws Exception {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT email, id FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, campaign);
            try (ResultSet rs = ps.executeQuery()) {
                List<Map.Entry<String, Long>> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(Map.entry(rs.getString(1), rs.getLong(2)));
                }
                return rows.stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
            }
        }
    }

    /** Recipients already sent (as an earlier run would have left them), without their events. */
    private static void insertSent(long campaign, List<String> emails) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("""
                INSERT INTO recipient (campaign_id, email, status, attempts, sent_at, updated_at)
                VALUES (?, ?, 'sent', 1, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))""")) {
            for (String e : emails) {
                ps.setLong(1, campaign);
                ps.setString(2, e);
                ps.executeUpdate();
            }
        }
        StatusCounts.rebuild(db.dataSource(), campaign);
    }
}
