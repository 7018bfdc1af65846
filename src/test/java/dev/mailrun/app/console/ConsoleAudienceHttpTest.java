package dev.mailrun.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberForm;
import dev.mailrun.campaign.audience.Subscribers;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The console's lists, subscriber search and subscriber page over plain HTTP against the real
 * database: what they show, what their forms change through the audience's domain, and bad input —
 * a bad value beside its field or one line saying what to change, nothing changed.
 */
class ConsoleAudienceHttpTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-12-07T09:00:00Z"), Duration.ofSeconds(1));
    private ConsoleClient console;
    private String session;
    private String csrf;

    @BeforeEach
    void start() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task", "segment", "subscriber",
                    "subscriber_list", "suppression")) {
                s.execute("DELETE FROM " + table);
            }
        }
        console = new ConsoleClient(WorkerEnv.of(db, 2525), clock);
        session = console.login(console.token("ops", ApiScope.ADMIN));
        csrf = console.csrf(session, "/console/lists");
    }

    @AfterEach
    void stop() {
        console.close();
    }

    private Lists lists() {
        return console.services.audience().lists();
    }

    private Subscribers subscribers() {
        return console.services.audience().subscribers();
    }

    private void subscriber(String email, String name, Map<String, ?> attributes, String... lists) throws Exception {
        subscribers().upsert(new SubscriberForm(email, Optional.ofNullable(name), Optional.ofNullable(attributes), List.of(lists)),
                SubscriptionSource.IMPORT);
    }

    private String follow(HttpResponse<String> redirect) {
        assertThat(redirect.statusCode()).as(redirect.body()).isEqualTo(303);
        return console.get(session, redirect.headers().firstValue("Location").orElseThrow()).body();
    }

    @Test
    void a_list_is_created_from_the_form_and_listed_with_its_counts_per_status() throws Exception {
        assertThat(console.get(session, "/console/lists").body()).contains("id=\"no-lists\">No list yet.", "href=\"/console/lists\">Lists</a>",
                "href=\"/console/subscribers\">Subscribers</a>", "href=\"/console/segments\">Segments</a>");
        String page = follow(console.post(session, "/console/lists/create", Map.of("csrf", csrf, "name", "news",
                "description", "The weekly <news>", "visibility", "public", "optIn", "double")));
        assertThat(page).contains("List news is created (public, double opt-in).");
        subscriber("a@example.com", null, null, "news");
        subscriber("b@example.com", null, null, "news");
        long id = lists().find("news").orElseThrow().id();
        assertThat(console.get(session, "/console/lists").body()).contains("<tr id=\"list-" + id + "\"><td><a href=\"/console/subscribers?list=news\">news</a>"
                + "</td><td>public</td><td>double</td>", "<td>The weekly &lt;news&gt;</td><td>2</td><td>0</td><td>0</td>");
        assertThat(ConsoleClient.audit(db.dataSource())).containsExactly("ops list.create /console/lists/create 200");
    }

    @Test
    void a_bad_or_taken_name_is_shown_beside_its_field_and_nothing_is_created() throws Exception {
        HttpResponse<String> blank = console.post(session, "/console/lists/create", Map.of("csrf", csrf, "name", " ",
                "visibility", "secret", "description", "two\nlines"));
        assertThat(blank.statusCode()).isEqualTo(422);
        assertThat(blank.body()).contains("id=\"name-error\">must not be blank</p>", "id=\"visibility-error\">must be public or private</p>",
                "id=\"description-error\">", "aria-invalid=\"true\" aria-describedby=\"name-error\"");
        assertThat(lists().list()).isEmpty();
        follow(console.post(session, "/console/lists/create", Map.of("csrf", csrf, "name", "news")));
        HttpResponse<String> taken = console.post(session, "/console/lists/create", Map.of("csrf", csrf, "name", "NEWS"));
        assertThat(taken.statusCode()).isEqualTo(422);
        assertThat(taken.body()).contains("id=\"name-error\">a list named &#39;NEWS&#39; exists already</p>", "value=\"NEWS\"");
        assertThat(lists().list()).hasSize(1);
    }

    @Test
    void a_list_is_deleted_unless_a_campaign_still_to_send_is_sent_to_it_which_is_said_in_one_line() throws Exception {
        lists().create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
        lists().create(new Lists.NewList("offers", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
        subscriber("a@example.com", null, null, "news", "offers");
        long campaign = console.campaign("Offers", ",\"lists\":[\"offers\"]");

        String refused = follow(console.post(session, "/console/lists/delete", Map.of("csrf", csrf, "name", "offers")));
        assertThat(refused).contains("<p class=\"flash error\" role=\"alert\">List offers was not deleted: list &#39;offers&#39; is the audience of campaign "
                + campaign + "; complete, cancel or change it first.</p>");
        assertThat(lists().find("offers")).isPresent();

        String deleted = follow(console.post(session, "/console/lists/delete", Map.of("csrf", csrf, "name", "news")));
        assertThat(deleted).contains("List news is deleted, with its 1 subscription(s); its subscribers stay.");
        assertThat(lists().find("news")).isEmpty();
        assertThat(follow(console.post(session, "/console/lists/delete", Map.of("csrf", csrf, "name", "gone"))))
                .contains("List gone was not deleted: no list named &#39;gone&#39;.");
    }

    @Test
    void the_search_finds_by_address_start_list_and_status_in_keyset_pages() throws Exception {
        lists().create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
        for (int i = 0; i < 55; i++) {
            subscriber(String.format("p%02d@example.com", i), "Person " + i, null, i % 2 == 0 ? new String[] {"news"} : new String[0]);
        }
        subscriber("zed@other.example", null, null);
        subscribers().blocklist("p03@example.com", SubscriptionSource.OPERATOR);

        String first = console.get(session, "/console/subscribers?email=P").body();
        assertThat(count(first, "<tr id=\"subscriber-")).isEqualTo(50);
        assertThat(first).contains("<a href=\"/console/subscriber?email=p00%40example.com\">p00@example.com</a></td><td>Person 0</td><td>enabled</td>")
                .doesNotContain("zed@other.example");
        String next = first.substring(first.indexOf("<a href=\"", first.indexOf("id=\"next\"") - 200));
        String href = next.substring(9, next.indexOf('"', 9)).replace("&amp;", "&");
        assertThat(href).startsWith("/console/subscribers?email=P&after=");
        String second = console.get(session, href).body();
        assertThat(count(second, "<tr id=\"subscriber-")).isEqualTo(5);
        assertThat(second).contains("p54@example.com", "id=\"first\"").doesNotContain("id=\"next\"", "p49@example.com");

        String onList = console.get(session, "/console/subscribers?list=news&status=confirmed").body();
        assertThat(count(onList, "<tr id=\"subscriber-")).isEqualTo(28);
        assertThat(onList).contains("<option value=\"news\" selected>news</option>");
        String blocklisted = console.get(session, "/console/subscribers?status=blocklisted").body();
        assertThat(count(blocklisted, "<tr id=\"subscriber-")).isEqualTo(1);
        assertThat(blocklisted).contains("p03@example.com</a></td><td>Person 3</td><td>blocklisted</td>");
        assertThat(console.get(session, "/console/subscribers?email=nobody").body()).contains("No subscriber matches.");
    }

    @Test
    void a_bad_search_says_beside_each_field_what_to_change_and_shows_no_row() throws Exception {
        subscriber("a@example.com", null, null);
        HttpResponse<String> bad = console.get(session, "/console/subscribers?list=nope&status=asleep");
        assertThat(bad.statusCode()).isEqualTo(422);
        assertThat(bad.body()).contains("id=\"list-error\">no list named &#39;nope&#39;</p>", "id=\"status-error\">must be enabled or blocklisted",
                "aria-invalid=\"true\" aria-describedby=\"list-error\"").doesNotContain("a@example.com");
        assertThat(console.get(session, "/console/subscribers?status=confirmed").body())
                .contains("id=\"status-error\">&#39;confirmed&#39; is the status of a subscription: name its list too</p>");
        HttpResponse<String> after = console.get(session, "/console/subscribers?after=x1");
        assertThat(after.statusCode()).isEqualTo(422);
        assertThat(after.body()).contains("id=\"after-error\">the page starts after a subscriber id (digits), not &#39;x1&#39;");
    }

    @Test
    void a_subscribers_page_shows_its_data_subscriptions_and_history_escaped() throws Exception {
        lists().create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
        subscriber("Ann@Example.com", "Ann <b>Lee</b>", Map.of("plan", "<pro>", "seats", 3), "news");
        String page = console.get(session, "/console/subscriber?email=ann%40example.com").body();
        assertThat(page).contains("<h1>Ann@example.com</h1>", "id=\"subscriber-name\">Ann &lt;b&gt;Lee&lt;/b&gt;</dd>",
                "id=\"subscriber-status\">enabled</dd>", "<tr><td>plan</td><td>&lt;pro&gt;</td></tr>", "<tr><td>seats</td><td>3</td></tr>",
                "<tr><td>news</td><td>confirmed</td><td>import</td>", "<td>created</td><td></td><td>by import</td>",
                "<td>subscribed</td><td>news</td>").doesNotContain("<b>Lee</b>", "<pro>");
        HttpResponse<String> missing = console.get(session, "/console/subscriber?email=nobody%40example.com");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("There is no subscriber nobody@example.com: search for one on the Subscribers page.");
        assertThat(console.get(session, "/console/subscriber?email=not-an-address").statusCode()).isEqualTo(404);
    }

    @Test
    void a_subscriber_is_added_to_a_list_and_blocklisted_from_its_page() throws Exception {
        lists().create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
        lists().create(new Lists.NewList("offers", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.DOUBLE));
        subscriber("a@example.com", null, null, "news");
        assertThat(console.get(session, "/console/subscriber?email=a%40example.com").body())
                .contains("<option value=\"offers\">offers</option>").doesNotContain("<option value=\"news\">");

        String added = follow(console.post(session, "/console/subscriber/lists", Map.of("csrf", csrf, "email", "a@example.com",
                "list", "offers")));
        assertThat(added).contains("a@example.com is added to list offers.", "<tr><td>offers</td><td>unconfirmed</td><td>operator</td>");
        assertThat(follow(console.post(session, "/console/subscriber/lists", Map.of("csrf", csrf, "email", "a@example.com",
                "list", "nope")))).contains("a@example.com was not added to nope: &#39;nope&#39;: no such list.");

        String blocked = follow(console.post(session, "/console/subscriber/blocklist", Map.of("csrf", csrf, "email", "a@example.com")));
        assertThat(blocked).contains("a@example.com is blocklisted; 2 subscription(s) unsubscribed.", "id=\"subscriber-status\">blocklisted</dd>",
                "<tr><td>news</td><td>unsubscribed</td>", "<td>blocklisted</td><td></td><td>by operator</td>")
                .doesNotContain("id=\"blocklist\"", "id=\"subscribe-form\"");
        assertThat(follow(console.post(session, "/console/subscriber/lists", Map.of("csrf", csrf, "email", "a@example.com",
                "list", "news")))).contains("a@example.com was not added to news: a@example.com is blocklisted, and a blocklisted "
                + "subscriber is on no list.");
        assertThat(ConsoleClient.audit(db.dataSource())).containsExactly(
                "ops subscriber.subscribe /console/subscriber/lists 200", "ops subscriber.subscribe /console/subscriber/lists 409",
                "ops subscriber.blocklist /console/subscriber/blocklist 200", "ops subscriber.subscribe /console/subscriber/lists 409");
    }

    @Test
    void deleting_a_subscriber_is_asked_first_and_needs_the_confirmation() throws Exception {
        subscriber("a@example.com", null, null);
        String ask = console.get(session, "/console/subscriber/delete?email=a%40example.com").body();
        assertThat(ask).contains("Delete subscriber a@example.com?", "name=\"confirm\" value=\"yes\"", "id=\"delete-confirmed\"");
        String unconfirmed = follow(console.post(session, "/console/subscriber/delete", Map.of("csrf", csrf, "email", "a@example.com")));
        assertThat(unconfirmed).contains("Tick the box to confirm: deleting a@example.com cannot be undone.");
        assertThat(subscribers().get("a@example.com")).isPresent();
        String deleted = follow(console.post(session, "/console/subscriber/delete", Map.of("csrf", csrf, "email", "a@example.com",
                "confirm", "yes")));
        assertThat(deleted).contains("a@example.com is deleted, with its subscriptions and history.");
        assertThat(subscribers().get("a@example.com")).isEmpty();
        assertThat(console.get(session, "/console/subscriber/delete?email=a%40example.com").statusCode()).isEqualTo(404);
    }

    @Test
    void a_token_that_only_reads_sees_no_audience_forms_and_a_forged_change_is_forbidden() throws Exception {
        lists().create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
        subscriber("a@example.com", null, null, "news");
        String viewer = console.login(console.token("viewer", ApiScope.AUDIENCE_READ));
        assertThat(console.get(viewer, "/console/lists").body()).contains(">news</a>").doesNotContain("id=\"new-list\"", "/console/lists/delete");
        assertThat(console.get(viewer, "/console/subscriber?email=a%40example.com").body()).contains("<h1>a@example.com</h1>")
                .doesNotContain("id=\"blocklist\"", "id=\"delete\"");
        String viewerCsrf = console.csrf(viewer, "/console/lists");
        HttpResponse<String> forged = console.post(viewer, "/console/subscriber/blocklist", Map.of("csrf", viewerCsrf, "email", "a@example.com"));
        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(forged.body()).contains("audience:write");
        HttpResponse<String> noToken = console.post(session, "/console/lists/delete", Map.of("name", "news"));
        assertThat(noToken.statusCode()).as("a change without the form's token").isEqualTo(403);
        assertThat(lists().find("news")).isPresent();
        assertThat(subscribers().get("a@example.com").orElseThrow().subscriber().status().dbValue()).isEqualTo("enabled");
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
