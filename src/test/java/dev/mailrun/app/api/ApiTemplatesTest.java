package dev.mailrun.app.api;

import static dev.mailrun.app.api.ApiHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The stored templates through the API: save, list, read, versions, diff, preview, delete; every refusal naming its field. */
class ApiTemplatesTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    /** Small, so that a test can go past it: the smallest content.max-template-bytes takes. */
    private static final int MAX_BYTES = 4096;

    private final SettableClock clock = SettableClock.at("2026-11-21T10:00:00Z");
    private ApiHarness api;
    private String token;

    @BeforeEach
    void start() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task", "template_version", "template")) {
                s.execute("DELETE FROM " + table);
            }
        }
        Map<String, String> env = WorkerEnv.of(db, 2525);
        env.put("MAILRUN_CONTENT_MAX_TEMPLATE_BYTES", Integer.toString(MAX_BYTES));
        env.put("MAILRUN_API_BURST", "1000");
        api = new ApiHarness(env, clock);
        token = api.token("ops", ApiScope.ADMIN);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private static String template(String name, String subject, String text, String html) {
        ObjectNode body = ApiHarness.JSON.createObjectNode();
        body.put("name", name);
        body.put("subject", subject);
        body.put("text", text);
        body.put("html", html);
        return body.toString();
    }

    private HttpResponse<String> save(String name, String subject) {
        return api.post(token, "/api/v1/templates", template(name, subject, "Hello {{ name }} of {{ company }}\n",
                "<p>Hello {{ name }} of {{ company }}</p>\n"));
    }

    private static List<String> fields(HttpResponse<String> r) {
        List<String> named = new ArrayList<>();
        json(r).get("errors").forEach(e -> named.add(e.get("field").asText()));
        return named;
    }

    @Test
    void a_template_is_saved_as_numbered_versions_listed_read_and_diffed() {
        HttpResponse<String> first = save("greeting", "Hello {{ name }}");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        assertThat(json(first).get("version").asInt()).isEqualTo(1);
        assertThat(json(first).get("created").asBoolean()).isTrue();
        assertThat(first.headers().firstValue("Location")).hasValue("/api/v1/templates/greeting/versions/1");

        HttpResponse<String> same = save("greeting", "Hello {{ name }}");
        assertThat(same.statusCode()).as("the same text stores nothing").isEqualTo(200);
        assertThat(json(same).get("version").asInt()).isEqualTo(1);

        HttpResponse<String> second = save("greeting", "Hi {{ name }}");
        assertThat(second.statusCode()).isEqualTo(201);
        assertThat(json(second).get("version").asInt()).isEqualTo(2);
        assertThat(json(second).get("created").asBoolean()).isFalse();

        JsonNode listed = json(api.get(token, "/api/v1/templates")).get("templates");
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).get("name").asText()).isEqualTo("greeting");
        assertThat(listed.get(0).get("latest_version").asInt()).isEqualTo(2);

        JsonNode latest = json(api.get(token, "/api/v1/templates/greeting"));
        assertThat(latest.get("version").asInt()).isEqualTo(2);
        assertThat(latest.get("subject").asText()).isEqualTo("Hi {{ name }}");
        assertThat(latest.get("html").asText()).isEqualTo("<p>Hello {{ name }} of {{ company }}</p>\n");
        assertThat(latest.get("properties").isNull()).isTrue();
        assertThat(latest.get("saved_by").asText()).isEqualTo("api:ops");
        assertThat(latest.get("valid").asBoolean()).isTrue();
        assertThat(latest.get("required_columns").toString()).contains("company");

        JsonNode versions = json(api.get(token, "/api/v1/templates/greeting/versions")).get("versions");
        assertThat(versions).extracting(v -> v.get("version").asInt()).containsExactly(2, 1);
        assertThat(json(api.get(token, "/api/v1/templates/greeting/versions/1")).get("subject").asText()).isEqualTo("Hello {{ name }}");

        JsonNode diff = json(api.get(token, "/api/v1/templates/greeting/diff?from=1&to=2"));
        assertThat(diff.get("lines").toString()).contains("-Hello {{ name }}", "+Hi {{ name }}");
        assertThat(json(api.get(token, "/api/v1/templates/greeting/diff?from=2&to=2")).get("lines")).isEmpty();
    }

    @Test
    void reads_of_what_is_not_stored_are_404_and_bad_diff_versions_422_naming_the_parameter() {
        save("greeting", "Hello");
        assertThat(api.get(token, "/api/v1/templates/nope").statusCode()).isEqualTo(404);
        assertThat(api.get(token, "/api/v1/templates/nope/versions").statusCode()).isEqualTo(404);
        assertThat(api.get(token, "/api/v1/templates/greeting/versions/7").statusCode()).isEqualTo(404);
        assertThat(api.get(token, "/api/v1/templates/greeting/versions/x").statusCode()).isEqualTo(404);
        assertThat(api.get(token, "/api/v1/templates/nope/diff?from=1&to=2").statusCode()).isEqualTo(404);
        HttpResponse<String> noTo = api.get(token, "/api/v1/templates/greeting/diff?from=1");
        assertThat(noTo.statusCode()).isEqualTo(422);
        assertThat(fields(noTo)).containsExactly("to");
        HttpResponse<String> unknown = api.get(token, "/api/v1/templates/greeting/diff?from=1&to=9");
        assertThat(unknown.statusCode()).isEqualTo(422);
        assertThat(fields(unknown)).containsExactly("version");
        assertThat(fields(api.get(token, "/api/v1/templates/greeting/diff?from=zero&to=1"))).containsExactly("from");
    }

    @Test
    void a_save_that_does_not_compile_is_422_naming_each_part_at_once_and_stores_nothing() {
        HttpResponse<String> broken = api.post(token, "/api/v1/templates", template("broken", "Line one\nline two",
                "fine {{ name }}\n", "<p>{% if name %}unclosed</p>\n"));
        assertThat(broken.statusCode()).as(broken.body()).isEqualTo(422);
        assertThat(fields(broken)).containsExactlyInAnyOrder("subject", "html");
        assertThat(json(broken).get("errors").toString()).contains("broken/subject.txt:2:1: the subject must be a single line");

        HttpResponse<String> missing = api.post(token, "/api/v1/templates", "{\"name\":\"bad name!\",\"subject\":\"S\",\"html\":\"<p>x</p>\"}");
        assertThat(missing.statusCode()).isEqualTo(422);
        assertThat(fields(missing)).containsExactly("name", "text");

        HttpResponse<String> properties = api.post(token, "/api/v1/templates",
                "{\"name\":\"props\",\"subject\":\"S\",\"text\":\"t\",\"html\":\"<p>h</p>\",\"properties\":\"colour = red\"}");
        assertThat(properties.statusCode()).as(properties.body()).isEqualTo(422);
        assertThat(fields(properties)).containsExactly("properties");

        HttpResponse<String> large = api.post(token, "/api/v1/templates", template("large", "S", "t", "<p>" + "x".repeat(MAX_BYTES) + "</p>"));
        assertThat(large.statusCode()).isEqualTo(422);
        assertThat(fields(large)).containsExactly("body");
        assertThat(json(large).get("errors").get(0).get("reason").asText())
                .contains("more than the limit of " + MAX_BYTES + " (content.max-template-bytes)");

        assertThat(json(api.get(token, "/api/v1/templates")).get("templates")).isEmpty();
    }

    @Test
    void a_preview_renders_the_latest_or_a_given_version_and_names_what_is_missing() {
        save("greeting", "Hello {{ name }}");
        save("greeting", "Hi {{ name }}");
        String fields = "\"name\":\"Ann\",\"fields\":{\"company\":\"Initech\"}";

        JsonNode latest = json(api.post(token, "/api/v1/templates/greeting/preview", "{" + fields + "}"));
        assertThat(latest.get("version").asInt()).isEqualTo(2);
        assertThat(latest.get("subject").asText()).isEqualTo("Hi Ann");
        assertThat(latest.get("html").asText()).contains("Hello Ann of Initech");
        JsonNode first = json(api.post(token, "/api/v1/templates/greeting/preview", "{\"version\":1," + fields + "}"));
        assertThat(first.get("subject").asText()).isEqualTo("Hello Ann");

        HttpResponse<String> lacking = api.post(token, "/api/v1/templates/greeting/preview", "{\"name\":\"Ann\"}");
        assertThat(lacking.statusCode()).isEqualTo(422);
        assertThat(fields(lacking)).containsOnly("fields");
        assertThat(json(lacking).get("errors").toString()).contains("company");
        assertThat(fields(api.post(token, "/api/v1/templates/greeting/preview", "{\"version\":9," + fields + "}"))).containsExactly("version");
        assertThat(fields(api.post(token, "/api/v1/templates/greeting/preview", "{\"email\":\"not-an-address\"," + fields + "}")))
                .containsExactly("email");
        assertThat(api.post(token, "/api/v1/templates/nope/preview", "{" + fields + "}").statusCode()).isEqualTo(404);

        assertThat(json(api.get(token, "/api/v1/templates/greeting/versions")).get("versions")).as("a preview stores nothing").hasSize(2);
    }

    @Test
    void a_version_a_campaign_pins_cannot_be_deleted_and_one_none_pins_can() {
        save("greeting", "Hello {{ name }}");
        HttpResponse<String> campaign = api.post(token, "/api/v1/campaigns",
                "{\"name\":\"Pinned\",\"template\":\"greeting\",\"from\":\"news@sender.example\"}");
        assertThat(campaign.statusCode()).as(campaign.body()).isEqualTo(201);
        String id = json(campaign).get("id").asText();
        save("greeting", "Hi {{ name }}");

        HttpResponse<String> pinned = api.call(token, "DELETE", "/api/v1/templates/greeting/versions/1", null, null);
        assertThat(pinned.statusCode()).isEqualTo(409);
        assertThat(json(pinned).get("detail").asText()).contains("campaign(s) " + id);
        assertThat(api.get(token, "/api/v1/templates/greeting/versions/1").statusCode()).isEqualTo(200);

        HttpResponse<String> deleted = api.call(token, "DELETE", "/api/v1/templates/greeting/versions/2", null, null);
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        assertThat(api.get(token, "/api/v1/templates/greeting/versions/2").statusCode()).isEqualTo(404);
        assertThat(api.call(token, "DELETE", "/api/v1/templates/greeting/versions/2", null, null).statusCode()).isEqualTo(404);
        assertThat(api.call(token, "DELETE", "/api/v1/templates/nope/versions/1", null, null).statusCode()).isEqualTo(404);
    }

    @Test
    void saving_and_deleting_need_templates_write_and_reading_templates_read() {
        assertThat(api.post(token, "/api/v1/templates", template("greeting", "Hello", "t", "<p>h</p>")).statusCode()).isEqualTo(201);
        String reader = api.token("reader", ApiScope.TEMPLATES_READ);
        String writer = api.token("writer", ApiScope.TEMPLATES_WRITE);

        HttpResponse<String> refused = api.post(reader, "/api/v1/templates", template("other", "S", "t", "<p>h</p>"));
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(json(refused).get("detail").asText()).contains("templates:write");
        assertThat(api.call(reader, "DELETE", "/api/v1/templates/greeting/versions/1", null, null).statusCode()).isEqualTo(403);
        assertThat(api.get(reader, "/api/v1/templates/greeting").statusCode()).isEqualTo(200);
        assertThat(api.post(reader, "/api/v1/templates/greeting/preview", "{}").statusCode()).isEqualTo(200);

        HttpResponse<String> saved = api.post(writer, "/api/v1/templates", template("other", "S", "t", "<p>h</p>"));
        assertThat(saved.statusCode()).isEqualTo(201);
        assertThat(api.get(writer, "/api/v1/templates").statusCode()).as("writing is not reading").isEqualTo(403);
    }
}
