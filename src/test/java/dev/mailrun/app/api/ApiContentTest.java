package dev.mailrun.app.api;

import static dev.mailrun.app.api.ApiHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import jakarta.mail.internet.MimeMessage;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A campaign's content through the API: its pins and their history, a move, a clone, test sends to a real SMTP server. */
class ApiContentTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

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
        Map<String, String> env = WorkerEnv.of(db, greenMail.getSmtp().getPort());
        env.put("MAILRUN_API_BURST", "1000");
        api = new ApiHarness(env, clock);
        token = api.token("ops", ApiScope.ADMIN);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private void save(String name, String subject) {
        ObjectNode body = ApiHarness.JSON.createObjectNode().put("name", name).put("subject", subject)
                .put("text", "Hello {{ name }}\n").put("html", "<p>Hello {{ name }}</p>\n");
        HttpResponse<String> r = api.post(token, "/api/v1/templates", body.toString());
        assertThat(r.statusCode()).as(r.body()).isIn(200, 201);
    }

    private String create(String template, String more) {
        HttpResponse<String> r = api.post(token, "/api/v1/campaigns", "{\"name\":\"Spring\",\"template\":\"" + template
                + "\",\"from\":\"news@sender.example\"" + more + "}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return json(r).get("id").asText();
    }

    private HttpResponse<String> move(String id, String body) {
        return api.call(token, "PUT", "/api/v1/campaigns/" + id + "/content", "application/json", body);
    }

    private static List<String> fields(HttpResponse<String> r) {
        List<String> named = new ArrayList<>();
        json(r).get("errors").forEach(e -> named.add(e.get("field").asText()));
        return named;
    }

    @Test
    void a_campaigns_own_markdown_message_is_placed_into_its_layout_and_bad_parts_are_named_under_message() {
        ObjectNode layout = ApiHarness.JSON.createObjectNode().put("name", "frame").put("subject", "Frame")
                .put("text", "{{ content }}\nUnsubscribe: {{ unsubscribe_url }}\n")
                .put("html", "<div>{{ content }}</div><p><a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></p>\n");
        assertThat(api.post(token, "/api/v1/templates", layout.toString()).statusCode()).isEqualTo(201);
        ObjectNode body = ApiHarness.JSON.createObjectNode().put("name", "Weekly 50").put("from", "news@sender.example");
        body.putObject("message").put("layout", "frame").put("subject", "Week 50, {{ name | default(\"all\") }}")
                .put("format", "markdown").put("body", "## Repairs\n\nHello {{ name }}, see [the guide](https://shop.example/g).\n");
        HttpResponse<String> created = api.post(token, "/api/v1/campaigns", body.toString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = json(created).get("id").asText();
        JsonNode pinned = json(api.get(token, "/api/v1/campaigns/" + id + "/content"));
        assertThat(pinned.get("template").asText() + "@" + pinned.get("version").asInt()).isEqualTo("weekly-50@1");
        JsonNode stored = json(api.get(token, "/api/v1/templates/weekly-50"));
        assertThat(stored.get("html").asText()).contains("<div><h2>Repairs</h2>").contains("<a href=\"https://shop.example/g\">the guide</a>");
        assertThat(stored.get("text").asText()).contains("the guide [1]").contains("[1] https://shop.example/g");

        ObjectNode bad = ApiHarness.JSON.createObjectNode().put("name", "Weekly 51").put("from", "news@sender.example");
        bad.putObject("message").put("layout", "no-such-layout").put("subject", "Hi").put("body", "Hello {{ name\n");
        HttpResponse<String> refused = api.post(token, "/api/v1/campaigns", bad.toString());
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
        assertThat(fields(refused)).containsExactlyInAnyOrder("message.layout", "message.body");
        assertThat(api.get(token, "/api/v1/templates/weekly-51").statusCode()).as("nothing stored").isEqualTo(404);
        ObjectNode both = ApiHarness.JSON.createObjectNode().put("name", "Both").put("template", "frame");
        both.putObject("message").put("layout", "frame").put("subject", "Hi").put("body", "<p>x</p>");
        assertThat(fields(api.post(token, "/api/v1/campaigns", both.toString()))).containsExactly("template");
    }

    @Test
    void a_drafts_own_message_is_written_and_pinned_and_a_problem_is_422_naming_its_member_with_nothing_stored() {
        ObjectNode layout = ApiHarness.JSON.createObjectNode().put("name", "frame").put("subject", "Frame")
                .put("text", "{{ content }}\nUnsubscribe: {{ unsubscribe_url }}\n")
                .put("html", "<div>{{ content }}</div><p><a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></p>\n");
        assertThat(api.post(token, "/api/v1/templates", layout.toString()).statusCode()).isEqualTo(201);
        save("spring", "Spring v1");
        HttpResponse<String> created = api.post(token, "/api/v1/campaigns",
                "{\"name\":\"Weekly 52\",\"template\":\"spring\",\"from\":\"news@sender.example\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = json(created).get("id").asText();
        String path = "/api/v1/campaigns/" + id + "/message";

        HttpResponse<String> broken = api.call(token, "PUT", path, "application/json",
                "{\"layout\":\"frame\",\"subject\":\"\",\"format\":\"markdown\",\"body\":\"Hello {{ name\\n\"}");
        assertThat(broken.statusCode()).as(broken.body()).isEqualTo(422);
        assertThat(fields(broken)).containsExactlyInAnyOrder("subject", "body");
        assertThat(api.get(token, "/api/v1/templates/weekly-52").statusCode()).as("nothing stored").isEqualTo(404);

        HttpResponse<String> written = api.call(token, "PUT", path, "application/json",
                "{\"layout\":\"frame\",\"subject\":\"Spring news\",\"format\":\"markdown\",\"body\":\"## Spring\\n\\nHello {{ name }}\"}");
        assertThat(written.statusCode()).as(written.body()).isEqualTo(200);
        assertThat(json(written).get("template").asText() + "@" + json(written).get("version").asInt()).isEqualTo("weekly-52@1");
        JsonNode history = json(written).get("history");
        assertThat(history.get(history.size() - 1).get("changed_by").asText()).isEqualTo("api:ops");
        assertThat(json(api.get(token, "/api/v1/templates/weekly-52")).get("html").asText()).startsWith("<div><h2>Spring</h2>");

        assertThat(api.post(token, "/api/v1/campaigns/" + id + "/recipients", "{\"recipients\":[{\"email\":\"ann@list.example\"}]}")
                .statusCode()).isEqualTo(200);
        HttpResponse<String> lacking = api.call(token, "PUT", path, "application/json",
                "{\"layout\":\"frame\",\"subject\":\"Hi\",\"body\":\"<p>{{ company }}</p>\"}");
        assertThat(lacking.statusCode()).isEqualTo(422);
        assertThat(fields(lacking)).containsOnly("body");
        assertThat(json(api.post(token, "/api/v1/campaigns/" + id + "/start", null)).get("status").asText()).isEqualTo("running");
        assertThat(api.call(token, "PUT", path, "application/json", "{\"layout\":\"frame\",\"subject\":\"Hi\",\"body\":\"<p>x</p>\"}")
                .statusCode()).isEqualTo(409);
    }

    @Test
    void a_campaigns_own_message_reads_back_as_it_was_written_and_a_version_without_one_is_404() {
        ObjectNode layout = ApiHarness.JSON.createObjectNode().put("name", "frame").put("subject", "Frame")
                .put("text", "{{ content }}\nUnsubscribe: {{ unsubscribe_url }}\n")
                .put("html", "<div>{{ content }}</div><p><a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></p>\n");
        assertThat(api.post(token, "/api/v1/templates", layout.toString()).statusCode()).isEqualTo(201);
        save("spring", "Spring v1");
        String id = create("spring", "");
        String path = "/api/v1/campaigns/" + id + "/message";
        HttpResponse<String> saved = api.get(token, path);
        assertThat(saved.statusCode()).isEqualTo(404);
        assertThat(json(saved).get("detail").asText()).isEqualTo("campaign " + id + " sends spring@1, whose message as written was "
                + "not kept (stored before messages were kept, or saved as a whole template)");

        String body = "## Spring\n\n  Hello {{ name }},\n\n* one\n* two\n";
        ObjectNode message = ApiHarness.JSON.createObjectNode().put("layout", "frame").put("subject", "Spring news")
                .put("format", "markdown").put("body", body).put("text", "Hello {{ name }}: spring.");
        assertThat(api.call(token, "PUT", path, "application/json", message.toString()).statusCode()).isEqualTo(200);
        JsonNode written = json(api.get(token, path));
        assertThat(written.get("template").asText() + "@" + written.get("version").asInt()).isEqualTo("spring@2");
        assertThat(written.get("layout").asText()).isEqualTo("frame");
        assertThat(written.get("subject").asText()).isEqualTo("Spring news");
        assertThat(written.get("format").asText()).isEqualTo("markdown");
        assertThat(written.get("body").asText()).as("the Markdown as written, not its HTML").isEqualTo(body);
        assertThat(written.get("text").asText()).isEqualTo("Hello {{ name }}: spring.");

        assertThat(move(id, "{\"template\":\"spring\",\"version\":1}").statusCode()).isEqualTo(200);
        assertThat(api.get(token, path).statusCode()).as("the pinned version's message, not the last written").isEqualTo(404);

        ObjectNode created = ApiHarness.JSON.createObjectNode().put("name", "Weekly 53").put("from", "news@sender.example");
        created.putObject("message").put("layout", "frame").put("subject", "Week 53").put("body", "<p>Hi</p>");
        String other = json(api.post(token, "/api/v1/campaigns", created.toString())).get("id").asText();
        JsonNode html = json(api.get(token, "/api/v1/campaigns/" + other + "/message"));
        assertThat(html.get("format").asText()).isEqualTo("html");
        assertThat(html.get("body").asText()).isEqualTo("<p>Hi</p>");
        assertThat(html.get("text").isNull()).as("no text part given: read out of the body").isTrue();
        String clone = json(api.post(token, "/api/v1/campaigns/" + other + "/clone", "{}")).get("id").asText();
        assertThat(json(api.get(token, "/api/v1/campaigns/" + clone + "/message")).get("body").asText()).isEqualTo("<p>Hi</p>");

        save("plain", "Plain");
        HttpResponse<String> none = api.get(token, "/api/v1/campaigns/" + create("plain", "") + "/message");
        assertThat(none.statusCode()).isEqualTo(404);
        assertThat(json(none).get("detail").asText()).endsWith("sends no message of its own");
        assertThat(api.get(api.token("reader", ApiScope.CAMPAIGNS_READ), path).statusCode()).isEqualTo(404);
        assertThat(api.get(token, "/api/v1/campaigns/999999/message").statusCode()).isEqualTo(404);
    }

    @Test
    void a_drafts_content_moves_to_another_version_and_every_pin_and_move_is_in_its_history() {
        save("spring", "Spring v1");
        save("spring-b", "Spring B v1");
        String id = create("spring", ",\"variants\":[\"A\",\"B:template=spring-b\"],\"test_share\":20");
        save("spring", "Spring v2");
        save("spring-b", "Spring B v2");

        JsonNode pinned = json(api.get(token, "/api/v1/campaigns/" + id + "/content"));
        assertThat(pinned.get("template").asText()).isEqualTo("spring");
        assertThat(pinned.get("version").asInt()).as("a later save does not reach a campaign").isEqualTo(1);
        assertThat(pinned.get("variants").get(0).get("variant").asText()).isEqualTo("B");
        assertThat(pinned.get("variants").get(0).get("version").asInt()).isEqualTo(1);

        HttpResponse<String> moved = move(id, "{\"template\":\"spring\",\"version\":2}");
        assertThat(moved.statusCode()).as(moved.body()).isEqualTo(200);
        assertThat(json(moved).get("version").asInt()).isEqualTo(2);
        JsonNode variant = json(move(id, "{\"template\":\"spring-b\",\"variant\":\"B\"}"));
        assertThat(variant.get("variants").get(0).get("version").asInt()).as("no version: the latest").isEqualTo(2);

        JsonNode history = json(api.get(token, "/api/v1/campaigns/" + id + "/content")).get("history");
        assertThat(history).hasSize(4);
        JsonNode last = history.get(3);
        assertThat(last.get("variant").asText()).isEqualTo("B");
        assertThat(last.get("from_version").asInt()).isEqualTo(1);
        assertThat(last.get("to_version").asInt()).isEqualTo(2);
        assertThat(last.get("changed_by").asText()).isEqualTo("api:ops");
        assertThat(history.get(2).get("variant").isNull()).isTrue();
        assertThat(history.get(2).get("changed_by").asText()).isEqualTo("api:ops");
    }

    @Test
    void a_move_to_what_does_not_exist_is_422_naming_the_field_and_a_running_campaigns_content_409() {
        save("spring", "Spring v1");
        String id = create("spring", "");

        assertThat(fields(move(id, "{\"template\":\"nope\"}"))).containsExactly("template");
        assertThat(fields(move(id, "{\"template\":\"spring\",\"version\":9}"))).containsExactly("version");
        assertThat(fields(move(id, "{\"template\":\"spring\",\"version\":0}"))).containsExactly("version");
        assertThat(fields(move(id, "{\"template\":\"spring\",\"variant\":\"Z\"}"))).containsExactly("variant");
        assertThat(fields(move(id, "{\"version\":1}"))).containsExactly("template");
        assertThat(move("999999", "{\"template\":\"spring\"}").statusCode()).isEqualTo(404);
        assertThat(json(api.get(token, "/api/v1/campaigns/" + id + "/content")).get("history")).as("nothing moved").hasSize(1);

        assertThat(api.post(token, "/api/v1/campaigns/" + id + "/recipients", "{\"recipients\":[{\"email\":\"ann@list.example\"}]}")
                .statusCode()).isEqualTo(200);
        assertThat(json(api.post(token, "/api/v1/campaigns/" + id + "/start", null)).get("status").asText()).isEqualTo("running");
        HttpResponse<String> running = move(id, "{\"template\":\"spring\",\"version\":1}");
        assertThat(running.statusCode()).isEqualTo(409);
        assertThat(json(running).get("detail").asText()).contains("is running");

        String reader = api.token("reader", ApiScope.CAMPAIGNS_READ);
        assertThat(api.call(reader, "PUT", "/api/v1/campaigns/" + id + "/content", "application/json", "{\"template\":\"spring\"}")
                .statusCode()).isEqualTo(403);
        assertThat(api.get(reader, "/api/v1/campaigns/" + id + "/content").statusCode()).isEqualTo(200);
    }

    @Test
    void a_clone_is_a_new_draft_with_the_same_pinned_version() {
        save("spring", "Spring v1");
        String id = create("spring", "");
        save("spring", "Spring v2");

        HttpResponse<String> copy = api.post(token, "/api/v1/campaigns/" + id + "/clone", "{}");
        assertThat(copy.statusCode()).as(copy.body()).isEqualTo(201);
        String cloneId = json(copy).get("id").asText();
        assertThat(cloneId).isNotEqualTo(id);
        assertThat(json(copy).get("name").asText()).isEqualTo("Spring (copy)");
        assertThat(json(copy).get("status").asText()).isEqualTo("draft");
        assertThat(copy.headers().firstValue("Location")).hasValue("/api/v1/campaigns/" + cloneId);
        assertThat(json(api.get(token, "/api/v1/campaigns/" + cloneId + "/content")).get("version").asInt()).isEqualTo(1);

        assertThat(json(api.post(token, "/api/v1/campaigns/" + id + "/clone", "{\"name\":\"Autumn\"}")).get("name").asText())
                .isEqualTo("Autumn");
        assertThat(fields(api.post(token, "/api/v1/campaigns/" + id + "/clone", "{\"name\":\" \"}"))).containsExactly("name");
        assertThat(api.post(token, "/api/v1/campaigns/999999/clone", "{}").statusCode()).isEqualTo(404);
    }

    @Test
    void a_test_goes_to_each_address_given_marked_as_a_test_and_the_campaign_is_unchanged() throws Exception {
        save("spring", "Spring for {{ name }}");
        String id = create("spring", "");
        JsonNode before = json(api.get(token, "/api/v1/campaigns/" + id)).get("report").get("counts");

        HttpResponse<String> sent = api.post(token, "/api/v1/campaigns/" + id + "/send-test",
                "{\"to\":[\"ann@team.example\",\"bob@team.example\"],\"name\":\"Tess\"}");
        assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
        JsonNode results = json(sent).get("results");
        assertThat(results).extracting(r -> r.get("to").asText()).containsExactly("ann@team.example", "bob@team.example");
        assertThat(results).allSatisfy(r -> {
            assertThat(r.get("outcome").asText()).isEqualTo("sent");
            assertThat(r.get("message_id").asText()).isNotBlank();
        });

        MimeMessage[] received = greenMail.getReceivedMessages();
        assertThat(received).hasSize(2);
        assertThat(received).allSatisfy(m -> {
            assertThat(m.getSubject()).isEqualTo("[test] Spring for Tess");
            assertThat(m.getHeader("X-Mailrun-Test", ",")).isEqualTo("1");
        });
        assertThat(json(api.get(token, "/api/v1/campaigns/" + id)).get("report").get("counts")).isEqualTo(before);
    }

    @Test
    void a_test_to_no_address_more_than_ten_a_bad_one_or_one_twice_is_422_naming_to_and_sends_nothing() {
        save("spring", "Spring");
        String id = create("spring", "");
        String eleven = IntStream.rangeClosed(1, 11).mapToObj(i -> "\"t" + i + "@team.example\"").collect(Collectors.joining(","));
        Map<String, String> cases = Map.of(
                "{\"to\":[" + eleven + "]}", "to",
                "{\"to\":[]}", "to",
                "{}", "to",
                "{\"to\":[\"ann@team.example\",\"not-an-address\"]}", "to",
                "{\"to\":[\"ann@team.example\",\"ANN@team.example\"]}", "to");
        cases.forEach((body, field) -> {
            HttpResponse<String> r = api.post(token, "/api/v1/campaigns/" + id + "/send-test", body);
            assertThat(r.statusCode()).as(body + " " + r.body()).isEqualTo(422);
            assertThat(fields(r)).as(body).containsExactly(field);
        });
        assertThat(greenMail.getReceivedMessages()).isEmpty();
        assertThat(api.post(token, "/api/v1/campaigns/999999/send-test", "{\"to\":[\"ann@team.example\"]}").statusCode()).isEqualTo(404);
        String reader = api.token("reader", ApiScope.CAMPAIGNS_READ);
        assertThat(api.post(reader, "/api/v1/campaigns/" + id + "/send-test", "{\"to\":[\"ann@team.example\"]}").statusCode())
                .isEqualTo(403);
        assertThat(greenMail.getReceivedMessages()).isEmpty();
    }
}
