package dev.mailrun.app.api;

import static dev.mailrun.app.api.ApiHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Subscribers and lists over real HTTP and MariaDB: every answer checked against the contract by the
 * harness, every rule the domain's (the same the CLI meets).
 */
class AudienceApiTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.at("2026-12-07T10:00:00Z");
    private ApiHarness api;
    private String token;

    @BeforeEach
    void start() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task", "subscriber", "subscriber_list",
                    "segment", "suppression")) {
                s.execute("DELETE FROM " + table);
            }
        }
        api = new ApiHarness(WorkerEnv.of(db, 2525), clock);
        token = api.token("crm", ApiScope.AUDIENCE_READ, ApiScope.AUDIENCE_WRITE);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private HttpResponse<String> patch(String path, String body) {
        return api.call(token, "PATCH", path, "application/json", body);
    }

    private HttpResponse<String> delete(String path) {
        return api.call(token, "DELETE", path, null, null);
    }

    @Test
    void a_list_is_created_read_changed_listed_with_its_counts_and_deleted() {
        HttpResponse<String> created = api.post(token, "/api/v1/lists", "{\"name\":\"news\",\"description\":\"Weekly\",\"opt_in\":\"double\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(json(created).get("visibility").asText()).isEqualTo("private");
        assertThat(json(created).get("opt_in").asText()).isEqualTo("double");

        api.post(token, "/api/v1/subscribers", "{\"email\":\"ann@example.com\",\"lists\":[\"NEWS\"]}");
        HttpResponse<String> changed = patch("/api/v1/lists/News", "{\"name\":\"Newsletter\",\"visibility\":\"public\",\"opt_in\":\"single\","
                + "\"description\":\"\"}");
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        assertThat(json(changed).get("name").asText()).isEqualTo("Newsletter");
        assertThat(json(changed).get("description").isNull()).isTrue();
        assertThat(json(changed).get("counts").get("unconfirmed").asLong()).isEqualTo(1);

        HttpResponse<String> all = api.get(token, "/api/v1/lists");
        assertThat(json(all).get("lists")).hasSize(1);
        assertThat(json(all).get("lists").get(0).get("visibility").asText()).isEqualTo("public");

        HttpResponse<String> deleted = delete("/api/v1/lists/newsletter");
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        assertThat(json(deleted).get("subscriptions").asLong()).isEqualTo(1);
        assertThat(api.get(token, "/api/v1/lists/newsletter").statusCode()).isEqualTo(404);
    }

    @Test
    void bad_list_values_are_422_naming_each_field_and_a_list_a_campaign_is_sent_to_is_not_deleted() throws Exception {
        HttpResponse<String> bad = api.post(token, "/api/v1/lists", "{\"name\":\"news\",\"visibility\":\"secret\"}");
        assertThat(bad.statusCode()).isEqualTo(422);
        assertThat(json(bad).get("errors").get(0).get("field").asText()).isEqualTo("visibility");
        api.post(token, "/api/v1/lists", "{\"name\":\"news\"}");
        HttpResponse<String> taken = api.post(token, "/api/v1/lists", "{\"name\":\"NEWS\"}");
        assertThat(taken.statusCode()).isEqualTo(422);
        assertThat(json(taken).get("errors").get(0).get("reason").asText()).isEqualTo("a list named 'NEWS' exists already");

        String admin = api.token("ops", ApiScope.ADMIN);
        HttpResponse<String> campaign = api.post(admin, "/api/v1/campaigns",
                "{\"name\":\"To news\",\"template\":\"newsletter\",\"from\":\"news@sender.example\",\"lists\":[\"news\"]}");
        assertThat(campaign.statusCode()).as(campaign.body()).isEqualTo(201);
        HttpResponse<String> refused = delete("/api/v1/lists/news");
        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(json(refused).get("detail").asText()).startsWith("name: list 'news' is the audience of campaign ");
        assertThat(rows("SELECT COUNT(*) FROM subscriber_list")).containsExactly("1");
    }

    @Test
    void a_subscriber_is_upserted_read_with_its_history_blocklisted_unblocklisted_and_deleted() {
        api.post(token, "/api/v1/lists", "{\"name\":\"news\"}");
        HttpResponse<String> created = api.post(token, "/api/v1/subscribers",
                "{\"email\":\"Ann@Example.com\",\"name\":\"Ann\",\"attributes\":{\"plan\":\"pro\",\"seats\":3},\"lists\":[\"news\"]}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        long id = json(created).get("subscriber").get("id").asLong();
        assertThat(json(created).get("subscribed_to").get(0).asText()).isEqualTo("news");
        HttpResponse<String> again = api.post(token, "/api/v1/subscribers", "{\"email\":\"ann@example.com\",\"name\":\"Ann B\"}");
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(json(again).get("subscriber").get("id").asLong()).isEqualTo(id);

        JsonNode read = json(api.get(token, "/api/v1/subscribers/" + id));
        assertThat(read.get("name").asText()).isEqualTo("Ann B");
        assertThat(read.get("attributes").get("seats").asInt()).isEqualTo(3);
        assertThat(read.get("subscriptions").get(0).get("status").asText()).isEqualTo("confirmed");
        assertThat(read.get("subscriptions").get(0).get("source").asText()).isEqualTo("api");
        assertThat(kinds(read)).containsExactly("updated", "subscribed", "created");

        JsonNode blocklisted = json(patch("/api/v1/subscribers/" + id, "{\"status\":\"blocklisted\"}"));
        assertThat(blocklisted.get("subscriber").get("status").asText()).isEqualTo("blocklisted");
        assertThat(blocklisted.get("changed").asBoolean()).isTrue();
        JsonNode enabled = json(patch("/api/v1/subscribers/" + id, "{\"status\":\"enabled\",\"attributes\":{}}"));
        assertThat(enabled.get("subscriber").get("status").asText()).isEqualTo("enabled");
        assertThat(enabled.get("subscriber").get("attributes")).isEmpty();
        JsonNode after = json(api.get(token, "/api/v1/subscribers/" + id));
        assertThat(after.get("subscriptions").get(0).get("status").asText()).as("taken off the blocklist, still unsubscribed")
                .isEqualTo("unsubscribed");
        assertThat(kinds(after).subList(0, 2)).containsExactly("unblocklisted", "updated");

        assertThat(delete("/api/v1/subscribers/" + id).statusCode()).isEqualTo(200);
        assertThat(api.get(token, "/api/v1/subscribers/" + id).statusCode()).isEqualTo(404);
        assertThat(delete("/api/v1/subscribers/" + id).statusCode()).isEqualTo(404);
        assertThat(patch("/api/v1/subscribers/" + id, "{\"name\":\"x\"}").statusCode()).isEqualTo(404);
    }

    @Test
    void bad_subscriber_values_are_422_naming_every_field_at_once_and_nothing_changes() throws Exception {
        HttpResponse<String> bad = api.post(token, "/api/v1/subscribers",
                "{\"email\":\"not-an-address\",\"attributes\":{\"plan\":{\"nested\":1}},\"lists\":[\"nope\"]}");
        assertThat(bad.statusCode()).isEqualTo(422);
        List<String> fields = new ArrayList<>();
        json(bad).get("errors").forEach(e -> fields.add(e.get("field").asText()));
        assertThat(fields).containsExactlyInAnyOrder("email", "attributes", "lists");
        HttpResponse<String> status = api.post(token, "/api/v1/subscribers", "{\"email\":\"a@example.com\"}");
        long id = json(status).get("subscriber").get("id").asLong();
        HttpResponse<String> badStatus = patch("/api/v1/subscribers/" + id, "{\"status\":\"gone\",\"name\":\"A\"}");
        assertThat(badStatus.statusCode()).isEqualTo(422);
        assertThat(json(badStatus).get("errors").get(0).get("field").asText()).isEqualTo("status");
        assertThat(rows("SELECT COALESCE(name, '-') FROM subscriber")).containsExactly("-");
    }

    @Test
    void a_search_pages_by_cursor_and_filters_by_attribute_list_and_status() {
        api.post(token, "/api/v1/lists", "{\"name\":\"news\"}");
        for (int i = 1; i <= 5; i++) {
            api.post(token, "/api/v1/subscribers", "{\"email\":\"p" + i + "@example.com\",\"attributes\":{\"plan\":\""
                    + (i % 2 == 0 ? "pro" : "free") + "\"}" + (i <= 3 ? ",\"lists\":[\"news\"]" : "") + "}");
        }
        JsonNode first = json(api.get(token, "/api/v1/subscribers?limit=2"));
        assertThat(emails(first)).containsExactly("p1@example.com", "p2@example.com");
        JsonNode second = json(api.get(token, "/api/v1/subscribers?limit=2&cursor=" + first.get("next_cursor").asText()));
        assertThat(emails(second)).containsExactly("p3@example.com", "p4@example.com");
        JsonNode last = json(api.get(token, "/api/v1/subscribers?limit=2&cursor=" + second.get("next_cursor").asText()));
        assertThat(emails(last)).containsExactly("p5@example.com");
        assertThat(last.get("next_cursor").isNull()).isTrue();

        assertThat(emails(json(api.get(token, "/api/v1/subscribers?attribute=plan&value=pro")))).containsExactly("p2@example.com",
                "p4@example.com");
        assertThat(emails(json(api.get(token, "/api/v1/subscribers?list=news&status=confirmed&attribute=plan&value=free"))))
                .containsExactly("p1@example.com", "p3@example.com");
        assertThat(emails(json(api.get(token, "/api/v1/subscribers?email=P5")))).containsExactly("p5@example.com");

        HttpResponse<String> lone = api.get(token, "/api/v1/subscribers?attribute=plan");
        assertThat(lone.statusCode()).isEqualTo(422);
        assertThat(json(lone).get("errors").get(0).get("field").asText()).isEqualTo("value");
        HttpResponse<String> badStatus = api.get(token, "/api/v1/subscribers?status=confirmed");
        assertThat(json(badStatus).get("errors").get(0).get("field").asText()).isEqualTo("status");
        assertThat(api.get(token, "/api/v1/subscribers?cursor=nonsense").statusCode()).isEqualTo(422);
    }

    @Test
    void a_csv_upload_and_an_ndjson_upload_import_into_a_list_with_the_report_of_subscribers_import() throws Exception {
        api.post(token, "/api/v1/lists", "{\"name\":\"news\"}");
        Path csv = dir.resolve("people.csv");
        Files.writeString(csv, "email,name,plan\nann@example.com,Ann,pro\nbad,,\nann@example.com,Again,free\n");
        HttpResponse<String> report = api.upload(token, "/api/v1/lists/news/import", csv);
        assertThat(report.statusCode()).as(report.body()).isEqualTo(200);
        assertThat(json(report).get("imported").asLong()).isEqualTo(1);
        assertThat(json(report).get("rejected").asLong()).isEqualTo(2);
        assertThat(json(report).get("first_rejects").get(0).get("line").asLong()).isEqualTo(3);

        String ndjson = "{\"email\":\"ann@example.com\",\"name\":\"Ann\",\"attributes\":{\"plan\":\"team\",\"seats\":4}}\n"
                + "{\"email\":\"bob@example.com\"}\n{\"email\":\"nope\"}\n";
        HttpResponse<String> updated = ndjson("/api/v1/lists/news/import?mode=update", ndjson);
        assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
        JsonNode r = json(updated);
        assertThat(r.get("mode").asText()).isEqualTo("update");
        assertThat(r.get("updated").asLong()).isEqualTo(1);
        assertThat(r.get("imported").asLong()).isEqualTo(1);
        assertThat(r.get("first_rejects").get(0).get("line").asLong()).as("the NDJSON line").isEqualTo(3);
        assertThat(rows("SELECT attribs FROM subscriber WHERE email = 'ann@example.com'")).singleElement().asString()
                .isEqualTo("{\"plan\":\"team\",\"seats\":\"4\"}");
        assertThat(rows("SELECT detail FROM subscriber_event WHERE kind = 'imported' ORDER BY id")).first().asString()
                .isEqualTo("line 2 of api-upload.csv");

        HttpResponse<String> broken = ndjson("/api/v1/lists/news/import", "{\"email\":\"c@example.com\"}\n[1,2]\n");
        assertThat(broken.statusCode()).isEqualTo(422);
        assertThat(json(broken).get("detail").asText()).isEqualTo("the upload: line 2: must be a JSON object {\"email\", \"name\", \"attributes\"}");
        assertThat(rows("SELECT COUNT(*) FROM subscriber WHERE email = 'c@example.com'")).containsExactly("0");
        assertThat(api.upload(token, "/api/v1/lists/nope/import", csv).statusCode()).isEqualTo(404);
        HttpResponse<String> mode = api.upload(token, "/api/v1/lists/news/import?mode=merge", csv);
        assertThat(json(mode).get("errors").get(0).get("field").asText()).isEqualTo("mode");
    }

    @Test
    void a_read_token_reads_and_is_refused_every_write() {
        String reader = api.token("dashboard", ApiScope.AUDIENCE_READ);
        assertThat(api.get(reader, "/api/v1/lists").statusCode()).isEqualTo(200);
        HttpResponse<String> refused = api.post(reader, "/api/v1/lists", "{\"name\":\"news\"}");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(json(refused).get("detail").asText()).isEqualTo("this needs the scope audience:write");
        String other = api.token("campaigns", ApiScope.CAMPAIGNS_READ);
        assertThat(api.get(other, "/api/v1/subscribers").statusCode()).isEqualTo(403);
    }

    private HttpResponse<String> ndjson(String path, String body) {
        HttpResponse<String> r = api.send(api.adminPort(), token, "POST", path, "application/x-ndjson",
                HttpRequest.BodyPublishers.ofString(body));
        ApiHarness.conforms("POST", path, r);
        return r;
    }

    private static List<String> kinds(JsonNode subscriber) {
        List<String> kinds = new ArrayList<>();
        subscriber.get("history").forEach(e -> kinds.add(e.get("kind").asText()));
        return kinds;
    }

    private static List<String> emails(JsonNode page) {
        List<String> emails = new ArrayList<>();
        page.get("subscribers").forEach(s -> emails.add(s.get("email").asText()));
        return emails;
    }

    private static List<String> rows(String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
