package dev.mailrun.campaign.audience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.send.scope.SendEvents;
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
 * A campaign sent to lists, on the real database and through the real sending path to GreenMail: its
 * recipients made from the lists' subscribers at start, once each, without those the lists must not
 * mail, their attributes as merge fields.
 */
class ListCampaignsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final Duration INTERVAL = Duration.ofSeconds(10);

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-24T10:00:00Z"), Duration.ofMillis(2));
    private final Lists lists = new Lists(db.dataSource(), clock);
    private final Subscribers subscribers = new Subscribers(db.dataSource(), clock, AddressFilter.none());
    private SendingHarness h;

    @BeforeEach
    void setUp() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            // The tasks of the campaigns other tests started would send in this test's ticks.
            s.execute("UPDATE task SET enabled = 0");
            s.execute("DELETE FROM campaign_list");
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
            s.execute("DELETE FROM suppression");
        }
        greenMail.purgeEmailFromAllMailboxes();
        h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL,
                SendSettingsFixtures.builder().through("test-relay", 0), "w1", SendEvents.NONE);
        lists.create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
        lists.create(new Lists.NewList("offers", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.DOUBLE));
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    @Test
    void the_lists_subscribers_become_recipients_once_each_without_those_the_lists_must_not_mail() throws Exception {
        subscribe("ann@example.com", Map.of(), "news", "offers");
        confirm("ann@example.com", "offers");
        subscribe("bob@example.com", Map.of(), "news");
        sql("UPDATE subscription SET status = 'unsubscribed' WHERE subscriber_id = (SELECT id FROM subscriber WHERE email = 'bob@example.com')");
        subscribe("cat@example.com", Map.of(), "offers"); // double opt-in, never confirmed
        subscribe("dan@example.com", Map.of(), "news");
        sql("UPDATE subscriber SET status = 'blocklisted' WHERE email = 'dan@example.com'");
        subscribe("eve@example.com", Map.of(), "news");
        Transactions.inTransaction(db.dataSource(), c -> new SuppressionTable().add(c,
                List.of(new SuppressionTable.Entry("eve@example.com", SuppressionReason.MANUAL, "test")), clock.instant()));
        subscribe("fay@example.com", Map.of(), "news");
        subscribe("Gus@Example.com", Map.of(), "offers");
        confirm("Gus@example.com", "offers");
        long id = CampaignFixtures.campaign(db.dataSource(), "Both lists");
        assertThat(h.campaigns.targets().setLists(id, List.of("offers", "News"))).containsExactly("news", "offers");
        // Gus is also imported from a CSV, in other letters: still one recipient.
        sql("INSERT INTO recipient (campaign_id, email, name, status, updated_at) VALUES (" + id
                + ", 'gus@example.com', 'Gus', 'pending', UTC_TIMESTAMP(3))");
        Transactions.inTransaction(db.dataSource(), c -> {
            StatusCounts.rebuild(c, id);
            return null;
        });

        h.campaigns.start(id);

        assertThat(recipients(id)).containsExactlyInAnyOrder("ann@example.com", "fay@example.com", "gus@example.com");
        StatusCounts.assertExact(db.dataSource(), id);
    }

    @Test
    void a_list_campaign_with_no_one_to_send_to_is_refused_with_one_line() throws Exception {
        subscribe("cat@example.com", Map.of(), "offers");
        long id = CampaignFixtures.campaign(db.dataSource(), "Nobody");
        h.campaigns.targets().setLists(id, List.of("offers"));

        assertThatThrownBy(() -> h.campaigns.start(id)).isInstanceOf(CampaignException.class)
                .hasMessage("campaign " + id + " cannot start: its lists (offers) have no one to send to (no confirmed subscription"
                        + " of a subscriber neither blocklisted nor suppressed)");
        assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.DRAFT);
    }

    @Test
    void an_unknown_list_is_refused_naming_the_field_and_lists_change_only_while_draft() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "Unknown");
        assertThatThrownBy(() -> h.campaigns.targets().setLists(id, List.of("news", "nope"))).isInstanceOf(InvalidFields.class)
                .hasMessage("lists: no list named 'nope'");
        assertThat(h.campaigns.targets().lists(id)).isEmpty();

        subscribe("ann@example.com", Map.of(), "news");
        h.campaigns.targets().setLists(id, List.of("news"));
        h.campaigns.start(id);
        assertThatThrownBy(() -> h.campaigns.targets().setLists(id, List.of())).isInstanceOf(CampaignException.class)
                .hasMessageContaining("only a draft campaign's lists can change");
        assertThatThrownBy(() -> lists.delete("news")).isInstanceOf(InvalidFields.class)
                .hasMessage("name: list 'news' is the audience of campaign " + id + "; complete, cancel or change it first");
    }

    @Test
    void a_clone_is_sent_to_the_same_lists() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "Original");
        h.campaigns.targets().setLists(id, List.of("news", "offers"));

        assertThat(h.campaigns.targets().lists(h.campaigns.cloneOf(id, Optional.empty()))).containsExactly("news", "offers");
    }

    @Test
    void a_list_campaign_is_sent_end_to_end_with_the_attributes_as_merge_fields() throws Exception {
        subscribe("ann@example.com", Map.of("company", "Initech", "seats", 12), "news");
        subscribe("bob@example.com", Map.of(), "news");
        long id = CampaignFixtures.campaign(db.dataSource(), "Sent to news");
        h.campaigns.targets().setLists(id, List.of("news"));

        h.campaigns.start(id);
        for (int tick = 0; tick < 5 && h.campaigns.get(id).status() != CampaignStatus.COMPLETED; tick++) {
            h.scheduler.tick();
            clock.set(clock.peek().plus(INTERVAL));
        }

        assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
        MimeMessage[] received = greenMail.getReceivedMessages();
        assertThat(received).hasSize(2);
        for (MimeMessage m : received) {
            String body = GreenMailUtil.getBody(m);
            if (m.getAllRecipients()[0].toString().contains("ann@")) {
                assertThat(body).contains("Welcome to Initech!");
            } else {
                assertThat(body).contains("Welcome to ACME!");
            }
        }
        assertThat(h.campaigns.recount(id)).isZero();
    }

    private void subscribe(String email, Map<String, ?> attributes, String... to) throws Exception {
        subscribers.upsert(new SubscriberForm(email, Optional.empty(), attributes.isEmpty() ? Optional.empty() : Optional.of(attributes),
                List.of(to)), SubscriptionSource.OPERATOR);
    }

    private static void confirm(String email, String list) throws Exception {
        sql("UPDATE subscription SET status = 'confirmed' WHERE subscriber_id = (SELECT id FROM subscriber WHERE email_key = '"
                + email.toLowerCase() + "') AND list_id = (SELECT id FROM subscriber_list WHERE name = '" + list + "')");
    }

    static void sql(String statement) throws Exception {
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
