package dev.mailrun.campaign.audience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.audience.segment.Segments;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.StatusCounts;
import dev.mailrun.testing.TestDatabase;
import jakarta.mail.internet.MimeMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A campaign sent to segments, on the real database and through the real sending path to GreenMail:
 * the members its filters match at start become its recipients, once each with its lists', and only
 * those a list may mail — someone who left every list is never mailed by a segment.
 */
class SegmentCampaignsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final Duration INTERVAL = Duration.ofSeconds(10);

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-24T10:00:00Z"), Duration.ofMillis(2));
    private final Lists lists = new Lists(db.dataSource(), clock);
    private final Subscribers subscribers = new Subscribers(db.dataSource(), clock, AddressFilter.none());
    private final Segments segments = new Segments(db.dataSource(), clock);
    private SendingHarness h;

    @BeforeEach
    void setUp() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            // The tasks of the campaigns other tests started would send in this test's ticks.
            s.execute("UPDATE task SET enabled = 0");
            s.execute("DELETE FROM campaign_list");
            s.execute("DELETE FROM campaign_segment");
            s.execute("DELETE FROM segment");
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
            s.execute("DELETE FROM suppression");
        }
        greenMail.purgeEmailFromAllMailboxes();
        h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL,
                SendSettingsFixtures.builder().through("test-relay", 0), "w1", SendEvents.NONE);
        lists.create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
        lists.create(new Lists.NewList("offers", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.DOUBLE));
        segments.create("pros", "{\"attr\": \"plan\", \"eq\": \"pro\"}");
        segments.create("germans", "{\"attr\": \"country\", \"eq\": \"DE\"}");
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    @Test
    void the_members_with_a_live_subscription_become_recipients_once_each_with_the_lists() throws Exception {
        subscribe("ann@example.com", Map.of("plan", "pro"), "news");                    // single opt-in: sent
        subscribe("bob@example.com", Map.of("plan", "pro", "country", "DE"), "news");   // in both segments: once
        subscribe("cat@example.com", Map.of("plan", "pro"), "offers");                  // double opt-in, unconfirmed: not sent
        subscribe("dan@example.com", Map.of("plan", "pro"), "offers");
        sql("UPDATE subscription SET status = 'confirmed' WHERE subscriber_id = "
                + "(SELECT id FROM subscriber WHERE email = 'dan@example.com')");     // confirmed: sent
        subscribe("eve@example.com", Map.of("plan", "pro"), "news", "offers");
        sql("UPDATE subscription SET status = 'unsubscribed' WHERE subscriber_id = "
                + "(SELECT id FROM subscriber WHERE email = 'eve@example.com')");     // left every list: never sent
        subscribe("fay@example.com", Map.of("plan", "pro"));                            // on no list: not sent
        subscribe("gus@example.com", Map.of("plan", "pro"), "news");
        sql("UPDATE subscriber SET status = 'blocklisted' WHERE email = 'gus@example.com'");
        subscribe("hal@example.com", Map.of("plan", "pro"), "news");
        Transactions.inTransaction(db.dataSource(), c -> new SuppressionTable().add(c,
                List.of(new SuppressionTable.Entry("hal@example.com", SuppressionReason.MANUAL, "test")), clock.instant()));
        subscribe("ivy@example.com", Map.of("plan", "free"), "news");                   // matches no segment, but on the list
        subscribe("joe@example.com", Map.of("plan", "free"), "offers");                 // matches nothing
        long id = CampaignFixtures.campaign(db.dataSource(), "Pros and Germans");
        assertThat(h.campaigns.targets().setSegments(id, List.of("pros", "Germans"))).containsExactly("germans", "pros");
        h.campaigns.targets().setLists(id, List.of("news"));

        h.campaigns.start(id);

        assertThat(recipients(id)).containsExactlyInAnyOrder("ann@example.com", "bob@example.com", "dan@example.com",
                "ivy@example.com");
        StatusCounts.assertExact(db.dataSource(), id);
    }

    @Test
    void a_segment_campaign_with_no_one_to_send_to_is_refused_with_one_line_and_stays_a_draft() throws Exception {
        subscribe("ann@example.com", Map.of("plan", "pro"), "offers"); // unconfirmed on a double opt-in list
        long id = CampaignFixtures.campaign(db.dataSource(), "Nobody");
        h.campaigns.targets().setSegments(id, List.of("pros"));

        assertThatThrownBy(() -> h.campaigns.start(id)).isInstanceOf(CampaignException.class)
                .hasMessage("campaign " + id + " cannot start: its segments (pros) have no one to send to (no confirmed subscription"
                        + " of a subscriber neither blocklisted nor suppressed)");
        assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.DRAFT);

        h.campaigns.targets().setLists(id, List.of("offers"));
        assertThatThrownBy(() -> h.campaigns.start(id)).isInstanceOf(CampaignException.class)
                .hasMessageStartingWith("campaign " + id + " cannot start: its lists (offers) and segments (pros) have no one to send to");
    }

    @Test
    void an_unknown_segment_is_refused_naming_the_field_and_segments_change_only_while_draft() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "Unknown");
        assertThatThrownBy(() -> h.campaigns.targets().setSegments(id, List.of("pros", "nope"))).isInstanceOf(InvalidFields.class)
                .hasMessage("segments: no segment named 'nope'");
        assertThat(h.campaigns.targets().segments(id)).isEmpty();

        subscribe("ann@example.com", Map.of("plan", "pro"), "news");
        h.campaigns.targets().setSegments(id, List.of("pros"));
        h.campaigns.start(id);
        assertThatThrownBy(() -> h.campaigns.targets().setSegments(id, List.of())).isInstanceOf(CampaignException.class)
                .hasMessage("campaign " + id + " is running; only a draft campaign's segments can change");
    }

    @Test
    void a_segment_a_campaign_not_finished_targets_cannot_be_deleted() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "Targets pros");
        h.campaigns.targets().setSegments(id, List.of("pros"));

        assertThatThrownBy(() -> segments.delete("pros")).isInstanceOf(InvalidFields.class)
                .hasMessage("name: segment 'pros' is the audience of campaign " + id + "; complete, cancel or change it first");
        assertThat(segments.get("pros")).isPresent();

        h.campaigns.cancel(id);
        segments.delete("pros");
        assertThat(segments.get("pros")).isEmpty();
    }

    @Test
    void a_clone_is_sent_to_the_same_segments() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "Original");
        h.campaigns.targets().setSegments(id, List.of("pros", "germans"));

        assertThat(h.campaigns.targets().segments(h.campaigns.cloneOf(id, Optional.empty()))).containsExactly("germans", "pros");
    }

    @Test
    void a_segment_campaign_is_sent_end_to_end_with_the_attributes_as_merge_fields() throws Exception {
        subscribe("ann@example.com", Map.of("plan", "pro", "company", "Initech"), "news");
        subscribe("bob@example.com", Map.of("plan", "pro"), "news");
        subscribe("cat@example.com", Map.of("plan", "free", "company", "Globex"), "news");
        long id = CampaignFixtures.campaign(db.dataSource(), "Sent to pros");
        h.campaigns.targets().setSegments(id, List.of("pros"));

        h.campaigns.start(id);
        for (int tick = 0; tick < 5 && h.campaigns.get(id).status() != CampaignStatus.COMPLETED; tick++) {
            h.scheduler.tick();
            clock.set(clock.peek().plus(INTERVAL));
        }

        assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
        MimeMessage[] received = greenMail.getReceivedMessages();
        assertThat(received).extracting(m -> m.getAllRecipients()[0].toString())
                .containsExactlyInAnyOrder("ann@example.com", "bob@example.com");
        for (MimeMessage m : received) {
            assertThat(GreenMailUtil.getBody(m)).contains(m.getAllRecipients()[0].toString().contains("ann@")
                    ? "Welcome to Initech!" : "Welcome to ACME!");
        }
    }

    private void subscribe(String email, Map<String, ?> attributes, String... to) throws Exception {
        subscribers.upsert(new SubscriberForm(email, Optional.empty(), attributes.isEmpty() ? Optional.empty() : Optional.of(attributes),
                List.of(to)), SubscriptionSource.OPERATOR);
    }

    private static void sql(String statement) throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    private static List<String> recipients(long campaignId) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT email FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
