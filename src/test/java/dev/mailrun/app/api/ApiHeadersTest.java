package dev.mailrun.app.api;

import static dev.mailrun.app.api.ApiHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operator's own headers through the API: created with a campaign, shown by GET and list, replaced
 * by PATCH; each bad header 422 naming the field headers, with the CLI's reason, and nothing created.
 * Every answer is checked against the contract by the harness.
 */
class ApiHeadersTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-21T10:00:00Z");
    private ApiHarness api;
    private String token;

    @BeforeEach
    void start() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task")) {
                s.execute("DELETE FROM " + table);
            }
        }
        api = new ApiHarness(WorkerEnv.of(db, 2525), clock);
        token = api.token("ops", ApiScope.ADMIN);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private static String body(String headers) {
        return "{\"name\":\"Spring\",\"template\":\"newsletter\",\"from\":\"news@sender.example\",\"headers\":" + headers + "}";
    }

    @Test
    void headers_are_created_with_the_campaign_shown_in_their_order_and_replaced_by_a_change() {
        HttpResponse<String> created = api.post(token, "/api/v1/campaigns",
                body("{\"X-Campaign-Tag\":\"spring-2026\",\"Feedback-ID\":\"a1:news:mailrun\",\"X-Greeting\":\"Grüße\"}"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = json(created).get("id").asText();
        assertThat(fields(json(created).get("headers"))).containsExactly("X-Campaign-Tag=spring-2026", "Feedback-ID=a1:news:mailrun",
                "X-Greeting=Grüße");

        HttpResponse<String> read = api.get(token, "/api/v1/campaigns/" + id);
        assertThat(fields(json(read).get("headers"))).containsExactly("X-Campaign-Tag=spring-2026", "Feedback-ID=a1:news:mailrun",
                "X-Greeting=Grüße");
        assertThat(json(api.get(token, "/api/v1/campaigns")).get("campaigns").get(0).get("headers").get("X-Campaign-Tag").asText())
                .isEqualTo("spring-2026");

        HttpResponse<String> bad = api.call(token, "PATCH", "/api/v1/campaigns/" + id, "application/json",
                "{\"headers\":{\"Reply-To\":\"x@y.example\"}}", "If-Match", read.headers().firstValue("ETag").orElseThrow());
        assertThat(bad.statusCode()).as(bad.body()).isEqualTo(422);
        assertThat(json(bad).get("errors").get(0).get("field").asText()).isEqualTo("headers");
        HttpResponse<String> changed = api.call(token, "PATCH", "/api/v1/campaigns/" + id, "application/json",
                "{\"headers\":{\"X-Campaign-Tag\":\"summer-2026\"}}", "If-Match", read.headers().firstValue("ETag").orElseThrow());
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        assertThat(fields(json(changed).get("headers"))).containsExactly("X-Campaign-Tag=summer-2026");
        HttpResponse<String> other = api.call(token, "PATCH", "/api/v1/campaigns/" + id, "application/json", "{\"subject\":\"Hi\"}",
                "If-Match", changed.headers().firstValue("ETag").orElseThrow());
        assertThat(fields(json(other).get("headers"))).as("kept by a change that does not give them").containsExactly(
                "X-Campaign-Tag=summer-2026");
        HttpResponse<String> removed = api.call(token, "PATCH", "/api/v1/campaigns/" + id, "application/json", "{\"headers\":{}}",
                "If-Match", other.headers().firstValue("ETag").orElseThrow());
        assertThat(json(removed).get("headers").size()).isZero();
    }

    @Test
    void a_campaign_without_headers_shows_an_empty_object() {
        HttpResponse<String> created = api.post(token, "/api/v1/campaigns",
                "{\"name\":\"Plain\",\"template\":\"newsletter\",\"from\":\"news@sender.example\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(json(created).get("headers").isObject()).isTrue();
        assertThat(json(created).get("headers").size()).isZero();
    }

    @Test
    void each_bad_header_is_refused_with_422_naming_the_field_and_the_reason_and_creates_nothing() throws Exception {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("{\"X-Tag\":\"spring\\r\\nBcc: victim@example.org\"}",
                "X-Tag: contains the control character U+000D (carriage return), which is not allowed in a header");
        cases.put("{\"X-Tag\":\"a\\nb\"}", "X-Tag: contains the control character U+000A (line feed), which is not allowed in a header");
        cases.put("{\"Subject\":\"Free money\"}", "Subject: mailrun writes this header itself; it cannot be added");
        cases.put("{\"DKIM-Signature\":\"v=1\"}", "DKIM-Signature: mailrun writes this header itself; it cannot be added");
        cases.put("{\"X-Mailrun-Test\":\"1\"}", "X-Mailrun-Test: mailrun writes this header itself; it cannot be added");
        cases.put("{\"Return-Path\":\"<x@y.example>\"}", "Return-Path: not allowed: it would speak for the message's "
                + "sender, recipients, structure, route or authentication");
        cases.put("{\"X-Tag\":\"one\",\"x-TAG\":\"two\"}", "x-TAG: given twice (header names are case-insensitive)");
        cases.put("{\"X-Tag:\":\"v\"}", "X-Tag:: a header name is printable ASCII without spaces or ':' (RFC 5322), found ':'");
        cases.put("{\"\":\"v\"}", "a header's name is empty");
        cases.put("{\"X-Tag\":\" \"}", "X-Tag: the value must not be empty");
        cases.put("{\"X-Tag\":null}", "X-Tag: the value must not be empty");
        StringBuilder many = new StringBuilder("{");
        for (int i = 0; i < 21; i++) {
            many.append(i == 0 ? "" : ",").append("\"X-H").append(i).append("\":\"").append(i).append('"');
        }
        cases.put(many.append('}').toString(), "at most 20 headers, got 21");
        cases.forEach((headers, reason) -> {
            HttpResponse<String> r = api.post(token, "/api/v1/campaigns", body(headers));
            assertThat(r.statusCode()).as(headers + " " + r.body()).isEqualTo(422);
            assertThat(json(r).get("errors")).as(headers).hasSize(1);
            assertThat(json(r).get("errors").get(0).get("field").asText()).as(headers).isEqualTo("headers");
            assertThat(json(r).get("errors").get(0).get("reason").asText()).as(headers).isEqualTo(reason);
        });
        // A JSON object cannot name one header twice; a value must be a string.
        assertThat(api.post(token, "/api/v1/campaigns", body("{\"X-Tag\":\"a\",\"X-Tag\":\"b\"}")).statusCode()).isEqualTo(400);
        assertThat(api.post(token, "/api/v1/campaigns", body("{\"X-Tag\":5}")).statusCode()).isEqualTo(400);
        assertThat(api.post(token, "/api/v1/campaigns", body("[\"X-Tag: a\"]")).statusCode()).isEqualTo(400);

        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM campaign")) {
            rs.next();
            assertThat(rs.getLong(1)).isZero();
        }
    }

    private static List<String> fields(JsonNode object) {
        List<String> out = new java.util.ArrayList<>();
        object.fields().forEachRemaining(e -> out.add(e.getKey() + "=" + e.getValue().asText()));
        return out;
    }
}
