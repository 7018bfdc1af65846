package dev.mailrun.http.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberForm;
import dev.mailrun.campaign.audience.segment.Segments;
import dev.mailrun.campaign.audience.Subscribers;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.audience.CampaignListTable;
import dev.mailrun.campaign.store.audience.CampaignSegmentTable;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTarget;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.db.Transactions;
import dev.mailrun.http.server.HttpLimits;
import dev.mailrun.http.server.HttpServer;
import dev.mailrun.http.server.Listener;
import dev.mailrun.http.server.PageLook;
import dev.mailrun.http.server.PublicPage;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The one-click link of a message sent to a list, over real sockets on a real database: it
 * unsubscribes from the campaign's list only, and suppresses nothing.
 */
class ListUnsubscribeTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final UnsubscribeTokens tokens = new UnsubscribeTokens(SigningKey.of("0123456789abcdef0123456789abcdef-test"));
    private static final SettableClock clock = SettableClock.at("2026-11-24T10:00:00Z");
    private static HttpServer server;
    private static String base;
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private final Lists lists = new Lists(db.dataSource(), clock);
    private final Subscribers subscribers = new Subscribers(db.dataSource(), clock, AddressFilter.none());
    private long campaign;

    @BeforeAll
    static void start() throws Exception {
        Unsubscriber unsubscriber = new Unsubscriber(db.dataSource(), new SuppressionTable(), clock);
        server = HttpServer.start(List.of(Listener.open("public", "127.0.0.1", 0, List.of(PublicRoutes.unsubscribe(tokens, unsubscriber, new PublicPage(PageLook.DEFAULTS), "en")))),
                Duration.ofSeconds(2), HttpLimits.DEFAULTS);
        base = "http://127.0.0.1:" + server.port();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void lists() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM campaign_list");
            s.execute("DELETE FROM campaign_segment");
            s.execute("DELETE FROM segment");
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
            s.execute("DELETE FROM suppression");
        }
        long news = lists.create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE)).id();
        lists.create(new Lists.NewList("offers", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
        subscribers.upsert(new SubscriberForm("ann@example.com", Optional.empty(), Optional.empty(), List.of("news", "offers")),
                SubscriptionSource.OPERATOR);
        campaign = CampaignFixtures.campaign(db.dataSource(), "To news");
        Transactions.inTransaction(db.dataSource(), c -> {
            new CampaignListTable().set(c, campaign, List.of(news));
            return null;
        });
    }

    @Test
    void a_one_click_post_unsubscribes_from_the_campaigns_list_only_and_suppresses_nothing() throws Exception {
        HttpResponse<String> response = oneClick(campaign, "Ann@example.com");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(subscriptions("ann@example.com")).containsExactly("news unsubscribed", "offers confirmed");
        assertThat(count("SELECT COUNT(*) FROM suppression")).isZero();
        assertThat(rows("SELECT CONCAT(e.kind, ' ', l.name, ' ', e.detail) FROM subscriber_event e JOIN subscriber_list l ON l.id = e.list_id"
                + " WHERE e.kind = 'unsubscribed'")).containsExactly("unsubscribed news one-click from campaign " + campaign);
    }

    @Test
    void a_second_post_answers_200_and_writes_no_second_event() throws Exception {
        oneClick(campaign, "ann@example.com");
        HttpResponse<String> again = oneClick(campaign, "ann@example.com");

        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(count("SELECT COUNT(*) FROM subscriber_event WHERE kind = 'unsubscribed'")).isEqualTo(1);
    }

    @Test
    void a_request_by_mail_leaves_the_campaigns_list_the_same_way() throws Exception {
        Unsubscriber.Result result = new Unsubscriber(db.dataSource(), new SuppressionTable(), clock)
                .unsubscribe(new UnsubscribeTarget(campaign, 1, "ann@example.com"), Unsubscriber.Method.MAILTO);

        assertThat(result).isEqualTo(Unsubscriber.Result.UNSUBSCRIBED);
        assertThat(subscriptions("ann@example.com")).containsExactly("news unsubscribed", "offers confirmed");
        assertThat(rows("SELECT detail FROM subscriber_event WHERE kind = 'unsubscribed'"))
                .containsExactly("mailto from campaign " + campaign);
        assertThat(count("SELECT COUNT(*) FROM suppression")).isZero();
    }

    @Test
    void a_list_campaign_whose_subscriber_was_deleted_suppresses_the_address_as_a_csv_campaign_does() throws Exception {
        subscribers.delete("ann@example.com");

        assertThat(oneClick(campaign, "ann@example.com").statusCode()).isEqualTo(200);
        assertThat(rows("SELECT CONCAT(address, ' ', reason) FROM suppression")).containsExactly("ann@example.com unsubscribed");
    }

    @Test
    void a_segment_campaigns_one_click_leaves_every_list_the_subscriber_is_on_and_suppresses_nothing() throws Exception {
        long pros = new Segments(db.dataSource(), clock).create("everyone", "{\"status\": \"enabled\"}").id();
        long toSegment = CampaignFixtures.campaign(db.dataSource(), "To a segment");
        Transactions.inTransaction(db.dataSource(), c -> {
            new CampaignSegmentTable().set(c, toSegment, List.of(pros));
            return null;
        });

        assertThat(oneClick(toSegment, "ann@example.com").statusCode()).isEqualTo(200);

        assertThat(subscriptions("ann@example.com")).containsExactly("news unsubscribed", "offers unsubscribed");
        assertThat(count("SELECT COUNT(*) FROM suppression")).isZero();
        assertThat(rows("SELECT CONCAT(l.name, ' ', e.detail) FROM subscriber_event e JOIN subscriber_list l ON l.id = e.list_id"
                + " WHERE e.kind = 'unsubscribed' ORDER BY l.name")).containsExactly("news one-click from campaign " + toSegment,
                        "offers one-click from campaign " + toSegment);
        assertThat(oneClick(toSegment, "ann@example.com").statusCode()).isEqualTo(200);
        assertThat(count("SELECT COUNT(*) FROM subscriber_event WHERE kind = 'unsubscribed'")).isEqualTo(2);
    }

    @Test
    void the_pages_name_the_lists_left_escaped() throws Exception {
        long tips = lists.create(new Lists.NewList("Tips & <Tricks>", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE)).id();
        subscribers.upsert(new SubscriberForm("ann@example.com", Optional.empty(), Optional.empty(), List.of("Tips & <Tricks>")),
                SubscriptionSource.OPERATOR);
        Transactions.inTransaction(db.dataSource(), c -> {
            CampaignListTable targets = new CampaignListTable();
            List<Long> both = new ArrayList<>(targets.of(c, campaign).stream().map(CampaignListTable.Target::listId).toList());
            both.add(tips);
            targets.set(c, campaign, both);
            return null;
        });
        String link = base + "/u/" + tokens.token(campaign, 1, "ann@example.com");

        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(link)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.body()).contains("Stop mail to <strong>ann@example.com</strong> from the lists news, Tips &amp; &lt;Tricks&gt;?");
        HttpResponse<String> done = oneClick(campaign, "ann@example.com");
        assertThat(done.body()).contains("You will no longer receive mail from the lists news, Tips &amp; &lt;Tricks&gt;")
                .doesNotContain("<Tricks>");
        assertThat(subscriptions("ann@example.com")).containsExactly("news unsubscribed", "offers confirmed", "Tips & <Tricks> unsubscribed");
    }

    @Test
    void the_pages_of_a_campaign_of_imported_recipients_still_say_all_mail() throws Exception {
        long csv = CampaignFixtures.campaign(db.dataSource(), "Imported");
        String link = base + "/u/" + tokens.token(csv, 1, "bob@example.com");

        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(link)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.body()).contains("Stop all mail to <strong>bob@example.com</strong>?");
        assertThat(oneClick(csv, "bob@example.com").body()).contains("<strong>bob@example.com</strong> will receive no more mail from us.");
    }

    private HttpResponse<String> oneClick(long campaignId, String address) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/u/" + tokens.token(campaignId, 1, address)))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("List-Unsubscribe=One-Click")).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> subscriptions(String email) throws Exception {
        return rows("SELECT CONCAT(l.name, ' ', m.status) FROM subscription m JOIN subscriber_list l ON l.id = m.list_id"
                + " JOIN subscriber s ON s.id = m.subscriber_id WHERE s.email_key = '" + email + "' ORDER BY l.name");
    }

    private static long count(String sql) throws Exception {
        return Long.parseLong(rows(sql).get(0));
    }

    private static List<String> rows(String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
