package dev.mailrun.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberForm;
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
 * The console's import into a list and its segments over plain HTTP against the real database: a CSV
 * file uploaded in each mode with its report, a file or form refused whole in one line; a segment saved
 * from a filter's JSON (every bad part beside the filter by its path), counted and previewed, deleted.
 */
class ConsoleSegmentsHttpTest {

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
        csrf = console.csrf(session, "/console/segments");
        Lists lists = console.services.audience().lists();
        lists.create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
        lists.create(new Lists.NewList("offers", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
    }

    @AfterEach
    void stop() {
        console.close();
    }

    private String follow(HttpResponse<String> redirect) {
        assertThat(redirect.statusCode()).as(redirect.body()).isEqualTo(303);
        return console.get(session, redirect.headers().firstValue("Location").orElseThrow()).body();
    }

    private HttpResponse<String> upload(String list, String mode, String csv) {
        return console.upload(session, "/console/subscribers/import", Map.of("csrf", csrf, "list", list, "mode", mode), csv);
    }

    @Test
    void a_csv_file_is_imported_into_a_list_and_its_report_shows_each_rows_fate_and_the_first_rejects() throws Exception {
        String form = console.get(session, "/console/subscribers/import?list=offers").body();
        assertThat(form).contains("<option value=\"offers\" selected>offers</option>", "<option value=\"blocklist\">blocklist</option>",
                "enctype=\"multipart/form-data\"");
        String page = follow(upload("news", "add", "email,name,plan\na@example.com,Ann,pro\nbad,,\nb@example.com,Bob,<free>\n"
                + "A@example.com,Ann again,pro\n"));
        assertThat(page).contains("4 row(s) read into list news (add): 2 changed, 0 unchanged, 2 rejected: see the report below.",
                "Last import: list news, mode add", "id=\"report-rows\">4</dd>", "id=\"report-imported\">2</dd>", "id=\"report-rejected\">2</dd>",
                "<li>invalid syntax: 1</li>", "<tr><td>3</td><td>bad</td><td>invalid syntax</td>",
                "<tr><td>5</td><td>A@example.com</td><td>duplicate in file</td><td>first at line 2</td></tr>");
        assertThat(console.get(session, "/console/subscriber?email=b%40example.com").body()).contains("<tr><td>plan</td><td>&lt;free&gt;</td></tr>",
                "<tr><td>news</td><td>confirmed</td><td>import</td>");

        String unsubscribed = follow(upload("news", "unsubscribe", "email\na@example.com\nc@example.com\n"));
        assertThat(unsubscribed).contains("mode unsubscribe", "id=\"report-unsubscribed\">2</dd>");
        String blocklisted = follow(upload("offers", "blocklist", "email\nb@example.com\n"));
        assertThat(blocklisted).contains("id=\"report-blocklisted\">1</dd>");
        assertThat(console.get(session, "/console/subscribers?status=blocklisted").body()).contains("b@example.com");
        assertThat(ConsoleClient.audit(db.dataSource())).hasSize(3).allMatch(a -> a.startsWith("ops subscribers.import /console/subscribers/import 200"));
    }

    @Test
    void an_import_refused_whole_says_what_to_change_in_one_line_and_imports_nothing() throws Exception {
        assertThat(follow(upload("nope", "add", "email\na@example.com\n"))).contains("The file was not imported: list: no list named &#39;nope&#39;.");
        assertThat(follow(upload("news", "merge", "email\na@example.com\n")))
                .contains("The file was not imported: mode: must be one of add, update, unsubscribe, blocklist, got &#39;merge&#39;.");
        assertThat(follow(upload("news", "add", "name,plan\nAnn,pro\n"))).contains("The file was not imported: ");
        assertThat(follow(console.upload(session, "/console/subscribers/import", Map.of("csrf", csrf, "mode", "add"), "email\na@example.com\n")))
                .contains("Choose the list to import into.");
        assertThat(console.services.audience().subscribers().get("a@example.com")).isEmpty();
    }

    @Test
    void a_segment_is_saved_from_its_filter_counted_and_previewed() throws Exception {
        for (String email : List.of("a@example.com", "b@example.com", "c@example.com")) {
            console.services.audience().subscribers().upsert(new SubscriberForm(email, Optional.of("N " + email),
                    Optional.of(Map.of("plan", email.startsWith("c") ? "free" : "pro")), List.of("news")), SubscriptionSource.IMPORT);
        }
        assertThat(console.get(session, "/console/segments").body()).contains("id=\"no-segments\">No segment yet.");
        HttpResponse<String> saved = console.post(session, "/console/segments/create", Map.of("csrf", csrf, "name", "Pro <readers>",
                "filter", "{\"and\": [{\"attr\": \"plan\", \"eq\": \"pro\"}, {\"list\": \"news\"}]}"));
        assertThat(saved.headers().firstValue("Location")).hasValue("/console/segment?name=Pro+%3Creaders%3E");
        String page = follow(saved);
        assertThat(page).contains("Segment Pro &lt;readers&gt; is saved; it matches 2 subscriber(s) now.", "id=\"segment-count\">Matches 2 subscriber(s) now.",
                "{&quot;and&quot;:[{&quot;attr&quot;:&quot;plan&quot;,&quot;eq&quot;:&quot;pro&quot;},{&quot;list&quot;:&quot;news&quot;}]}",
                "<a href=\"/console/subscriber?email=a%40example.com\">a@example.com</a></td><td>enabled</td><td>N a@example.com</td>",
                "b@example.com").doesNotContain("c@example.com", "<readers>");

        console.services.audience().subscribers().upsert(new SubscriberForm("d@example.com", Optional.empty(),
                Optional.of(Map.of("plan", "pro")), List.of("news")), SubscriptionSource.IMPORT);
        String list = console.get(session, "/console/segments").body();
        assertThat(list).as("counted when the page is read").contains("href=\"/console/segment?name=Pro+%3Creaders%3E\">Pro &lt;readers&gt;</a></td><td>3</td>");
        assertThat(console.get(session, "/console/segment?name=nope").statusCode()).isEqualTo(404);
    }

    @Test
    void every_bad_part_of_a_filter_is_shown_beside_it_by_its_path_and_nothing_is_saved() throws Exception {
        HttpResponse<String> bad = console.post(session, "/console/segments/create", Map.of("csrf", csrf, "name", "x",
                "filter", "{\"and\": [{\"attr\": \"\", \"eq\": 1}, {\"list\": \"nope\"}, {\"flag\": 1}]}"));
        assertThat(bad.statusCode()).isEqualTo(422);
        assertThat(bad.body()).contains("<ul class=\"field-error\" id=\"filter-errors\">", "<li>filter.and[0].attr: ",
                "<li>filter.and[2]: must have one of and, or, not, attr, list,", "aria-describedby=\"filter-help filter-errors\" aria-invalid=\"true\"",
                "&quot;nope&quot;");
        HttpResponse<String> lists = console.post(session, "/console/segments/create", Map.of("csrf", csrf, "name", "x",
                "filter", "{\"list\": \"nope\"}"));
        assertThat(lists.body()).contains("<li>filter.list: no list named &#39;nope&#39;</li>");
        HttpResponse<String> notJson = console.post(session, "/console/segments/create", Map.of("csrf", csrf, "name", " ", "filter", "{oops"));
        assertThat(notJson.statusCode()).isEqualTo(422);
        assertThat(notJson.body()).contains("id=\"name-error\">must not be blank</p>");
        HttpResponse<String> notJsonNamed = console.post(session, "/console/segments/create", Map.of("csrf", csrf, "name", "y", "filter", "{oops"));
        assertThat(notJsonNamed.body()).contains("<li>filter: is not JSON: ");
        assertThat(console.services.audience().segments().list()).isEmpty();

        follow(console.post(session, "/console/segments/create", Map.of("csrf", csrf, "name", "all", "filter", "{\"status\": \"enabled\"}")));
        HttpResponse<String> taken = console.post(session, "/console/segments/create", Map.of("csrf", csrf, "name", "ALL",
                "filter", "{\"status\": \"enabled\"}"));
        assertThat(taken.body()).contains("id=\"name-error\">a segment named &#39;ALL&#39; exists already</p>");
    }

    @Test
    void a_segment_is_deleted_and_an_unknown_one_is_said_in_one_line() throws Exception {
        console.services.audience().segments().create("all", "{\"status\": \"enabled\"}");
        assertThat(follow(console.post(session, "/console/segments/delete", Map.of("csrf", csrf, "name", "all"))))
                .contains("Segment all is deleted; its subscribers stay.", "No segment yet.");
        assertThat(follow(console.post(session, "/console/segments/delete", Map.of("csrf", csrf, "name", "all"))))
                .contains("Segment all was not deleted: no segment named &#39;all&#39;.");
        assertThat(ConsoleClient.audit(db.dataSource())).containsExactly("ops segment.delete /console/segments/delete 200",
                "ops segment.delete /console/segments/delete 409");
    }
}
