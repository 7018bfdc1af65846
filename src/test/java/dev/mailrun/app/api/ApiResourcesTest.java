package dev.mailrun.app.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static dev.mailrun.app.api.ApiHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

/** The API's resources through a real Jetty and a real database, every answer checked against the contract. */
class ApiResourcesTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.at("2026-11-21T10:00:00Z");
    private ApiHarness api;
    private String token;

    @BeforeEach
    void start() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "suppression", "suppression_removal", "campaign", "task",
                    "template_version", "template")) {
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

    private String create(String name) {
        HttpResponse<String> r = api.post(token, "/api/v1/campaigns",
                "{\"name\":\"" + name + "\",\"template\":\"newsletter\",\"from\":\"news@sender.example\",\"rate\":5}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return json(r).get("id").asText();
    }

    @Test
    void a_campaign_is_created_listed_in_pages_and_read_with_its_status_report() {
        String first = create("First");
        assertThat(api.get(token, "/api/v1/campaigns/" + first).headers().firstValue("ETag")).isPresent();
        List<String> ids = new ArrayList<>(List.of(first));
        for (int i = 0; i < 4; i++) {
            ids.add(create("Next " + i));
        }
        List<String> seen = new ArrayList<>();
        String path = "/api/v1/campaigns?limit=2&status=draft";
        while (true) {
            JsonNode page = json(api.get(token, path));
            page.get("campaigns").forEach(c -> seen.add(c.get("id").asText()));
            if (page.get("next_cursor").isNull()) {
                break;
            }
            if (seen.size() == 2) {
                create("Inserted meanwhile");
            }
            path = "/api/v1/campaigns?limit=2&status=draft&cursor=" + page.get("next_cursor").asText();
        }
        assertThat(seen).startsWith(ids.toArray(new String[0])).hasSize(6).doesNotHaveDuplicates();
        assertThat(json(api.get(token, "/api/v1/campaigns?status=running")).get("campaigns")).isEmpty();
        assertThat(json(api.get(token, "/api/v1/campaigns?created_since=2026-11-22T00:00:00Z")).get("campaigns")).isEmpty();

        JsonNode one = json(api.get(token, "/api/v1/campaigns/" + first));
        assertThat(one.get("status").asText()).isEqualTo("draft");
        assertThat(one.get("report").get("campaign").get("id").asLong()).isEqualTo(Long.parseLong(first));
        assertThat(one.get("report").get("counts").get("total").asLong()).isZero();
        assertThat(api.get(token, "/api/v1/campaigns/999999").statusCode()).isEqualTo(404);
        assertThat(api.get(token, "/api/v1/campaigns/abc").statusCode()).isEqualTo(404);
        assertThat(api.get(token, "/api/v1/campaigns?cursor=bogus").statusCode()).isEqualTo(422);
    }

    @Test
    void bad_input_of_every_kind_is_refused_with_one_reason_per_field_and_creates_nothing() throws Exception {
        HttpResponse<String> fields = api.post(token, "/api/v1/campaigns", "{\"name\":\"N\",\"template\":\"newsletter\","
                + "\"from\":\"news@sender.example\",\"rate\":0,\"windows\":[\"Mon-Fry 08:00-18:00 UTC\"],"
                + "\"start_at\":\"tomorrow\",\"relay\":\"nowhere\"}");
        assertThat(fields.statusCode()).isEqualTo(422);
        assertThat(fields.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        List<String> named = new ArrayList<>();
        json(fields).get("errors").forEach(e -> named.add(e.get("field").asText()));
        assertThat(named).containsExactlyInAnyOrder("rate", "windows", "start_at", "relay");

        HttpResponse<String> past = api.post(token, "/api/v1/campaigns", "{\"name\":\"N\",\"template\":\"newsletter\","
                + "\"from\":\"news@sender.example\",\"start_at\":\"2026-11-21T10:00 Europe/Berlin\"}");
        assertThat(past.statusCode()).as(past.body()).isEqualTo(422);
        assertThat(fieldsOf(past)).containsExactly("start_at");
        assertThat(json(past).get("errors").get(0).get("reason").asText()).doesNotContain("--");

        JsonNode unknown = json(api.post(token, "/api/v1/campaigns", "{\"name\":\"N\",\"template\":\"newsletter\","
                + "\"from\":\"news@sender.example\",\"colour\":\"red\"}"));
        assertThat(unknown.get("status").asInt()).isEqualTo(422);
        assertThat(unknown.get("errors").get(0).get("field").asText()).isEqualTo("colour");
        assertThat(api.post(token, "/api/v1/campaigns", "{\"name\":\"N\",\"template\":\"newsletter\",\"from\":\"x@y.example\",\"rate\":\"5\"}")
                .statusCode()).isEqualTo(400);
        assertThat(api.post(token, "/api/v1/campaigns", "{\"name\":").statusCode()).isEqualTo(400);
        assertThat(json(api.post(token, "/api/v1/campaigns", "{\"name\":\"Evil\\r\\nBcc: x@y.example\",\"template\":\"newsletter\","
                + "\"from\":\"news@sender.example\"}")).get("errors").get(0).get("field").asText()).isEqualTo("name");
        assertThat(api.post(token, "/api/v1/campaigns", "{\"name\":\"" + "n".repeat(201) + "\",\"template\":\"newsletter\","
                + "\"from\":\"news@sender.example\"}").statusCode()).isEqualTo(422);
        assertThat(json(api.post(token, "/api/v1/campaigns", "{\"name\":\"N\",\"template\":\"no-such\",\"from\":\"news@sender.example\"}"))
                .get("status").asInt()).isIn(404, 409, 422);
        assertThat(api.call(token, "POST", "/api/v1/campaigns", "text/plain", "name=N").statusCode()).isEqualTo(415);
        assertThat(api.statusOfDeclaredLength(token, "/api/v1/campaigns", "application/json", 17L * 1024 * 1024)).isEqualTo(413);

        assertThat(json(api.get(token, "/api/v1/campaigns")).get("campaigns")).isEmpty();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             var rs = s.executeQuery("SELECT COUNT(*) FROM campaign")) {
            rs.next();
            assertThat(rs.getLong(1)).isZero();
        }
    }

    @Test
    void a_retried_post_with_the_same_key_is_answered_once_and_another_body_with_that_key_is_refused() {
        String body = "{\"name\":\"Once\",\"template\":\"newsletter\",\"from\":\"news@sender.example\"}";
        HttpResponse<String> first = api.post(token, "/api/v1/campaigns", body, "Idempotency-Key", "create-once-1");
        HttpResponse<String> again = api.post(token, "/api/v1/campaigns", body, "Idempotency-Key", "create-once-1");
        assertThat(again.statusCode()).isEqualTo(201);
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(json(api.get(token, "/api/v1/campaigns")).get("campaigns")).hasSize(1);
        HttpResponse<String> other = api.post(token, "/api/v1/campaigns", body.replace("Once", "Twice"), "Idempotency-Key", "create-once-1");
        assertThat(other.statusCode()).isEqualTo(422);
        assertThat(json(api.get(token, "/api/v1/campaigns")).get("campaigns")).hasSize(1);
    }

    @Test
    void a_state_change_with_a_stale_etag_is_refused_and_changes_nothing() {
        String id = create("Raced");
        String etag = api.get(token, "/api/v1/campaigns/" + id).headers().firstValue("ETag").orElseThrow();
        clock.advance(java.time.Duration.ofSeconds(1));
        api.post(token, "/api/v1/campaigns/" + id + "/cancel", null, "If-Match", etag);
        HttpResponse<String> stale = api.post(token, "/api/v1/campaigns/" + id + "/pause", "{\"reason\":\"late\"}", "If-Match", etag);
        assertThat(stale.statusCode()).isEqualTo(412);
        assertThat(json(api.get(token, "/api/v1/campaigns/" + id)).get("status").asText()).isEqualTo("cancelled");
        assertThat(json(api.post(token, "/api/v1/campaigns/" + id + "/resume", null)).get("status").asInt()).isEqualTo(409);
    }

    @Test
    void a_scheduled_campaign_is_changed_only_with_its_current_etag_and_of_racing_changes_exactly_one_wins() throws Exception {
        String id = json(api.post(token, "/api/v1/campaigns", "{\"name\":\"Later\",\"template\":\"newsletter\","
                + "\"from\":\"news@sender.example\",\"start_at\":\"2026-12-01T09:00:00Z\"}")).get("id").asText();
        api.post(token, "/api/v1/campaigns/" + id + "/recipients", "{\"recipients\":[{\"email\":\"a@list.example\"}]}");
        assertThat(json(api.post(token, "/api/v1/campaigns/" + id + "/start", null)).get("status").asText()).isEqualTo("scheduled");
        String path = "/api/v1/campaigns/" + id;
        String etag = api.get(token, path).headers().firstValue("ETag").orElseThrow();

        assertThat(api.call(token, "PATCH", path, "application/json", "{\"rate\":3}").statusCode()).isEqualTo(428);
        List<java.util.concurrent.Future<Integer>> racers = new ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            for (int i = 0; i < 8; i++) {
                String subject = "Subject " + i;
                racers.add(pool.submit(() -> api.call(token, "PATCH", path, "application/json",
                        "{\"subject\":\"" + subject + "\"}", "If-Match", etag).statusCode()));
            }
            List<Integer> statuses = new ArrayList<>();
            for (var f : racers) {
                statuses.add(f.get());
            }
            assertThat(statuses).containsOnly(200, 412).filteredOn(st -> st == 200).hasSize(1);
        } finally {
            pool.shutdown();
        }
        HttpResponse<String> now = api.get(token, path);
        assertThat(json(now).get("subject").asText()).startsWith("Subject ");
        String fresh = now.headers().firstValue("ETag").orElseThrow();
        assertThat(fresh).isNotEqualTo(etag);
        HttpResponse<String> moved = api.call(token, "PATCH", path, "application/json", "{\"start_at\":\"2026-12-02T09:00:00Z\"}",
                "If-Match", fresh);
        assertThat(moved.statusCode()).as(moved.body()).isEqualTo(200);
        assertThat(json(moved).get("start_at").asText()).isEqualTo("2026-12-02T09:00:00Z");
        HttpResponse<String> past = api.call(token, "PATCH", path, "application/json", "{\"start_at\":\"2026-11-01T09:00:00Z\"}",
                "If-Match", moved.headers().firstValue("ETag").orElseThrow());
        assertThat(past.statusCode()).as(past.body()).isEqualTo(422);
        assertThat(fieldsOf(past)).containsExactly("start_at");
        assertThat(api.call(token, "PATCH", path, "application/json", "{\"rate\":-1}",
                "If-Match", moved.headers().firstValue("ETag").orElseThrow()).statusCode()).isEqualTo(422);
    }

    @Test
    void recipients_added_as_json_are_reported_by_index_looked_up_and_exported_as_csv_and_ndjson() {
        String id = create("Bulk");
        StringBuilder body = new StringBuilder("{\"recipients\":[");
        for (int i = 0; i < 30; i++) {
            body.append(i == 0 ? "" : ",").append("{\"email\":\"reader").append(i).append("@list.example\",\"name\":\"R ").append(i)
                    .append("\",\"fields\":{\"company\":\"ACME\"}}");
        }
        body.append(",{\"email\":\"not-an-address\"},{\"email\":\"reader3@list.example\"}]}");
        JsonNode report = json(api.post(token, "/api/v1/campaigns/" + id + "/recipients", body.toString()));
        assertThat(report.get("imported").asLong()).isEqualTo(30);
        assertThat(report.get("rejected").asLong()).isEqualTo(2);
        assertThat(report.get("duplicates").asLong()).isEqualTo(1);
        assertThat(report.get("first_rejects").get(0).get("index").asInt()).isEqualTo(30);
        assertThat(report.get("first_rejects").get(1).get("index").asInt()).isEqualTo(31);

        JsonNode one = json(api.get(token, "/api/v1/campaigns/" + id + "/recipients/READER7@list.example"));
        assertThat(one.get("email").asText()).isEqualTo("reader7@list.example");
        assertThat(one.get("status").asText()).isEqualTo("pending");
        assertThat(api.get(token, "/api/v1/campaigns/" + id + "/recipients/nobody@list.example").statusCode()).isEqualTo(404);

        HttpResponse<String> csv = api.get(token, "/api/v1/campaigns/" + id + "/export");
        assertThat(csv.body().split("\r\n")).hasSize(31);
        HttpResponse<String> ndjson = api.get(token, "/api/v1/campaigns/" + id + "/export?format=ndjson");
        assertThat(ndjson.body().split("\n")).hasSize(30);
        assertThat(api.get(token, "/api/v1/campaigns/" + id + "/export?format=xml").statusCode()).isEqualTo(422);
    }

    @Test
    void an_upload_whose_connection_dropped_before_the_answer_is_retried_with_its_key_and_imports_everyone_once() throws Exception {
        String id = create("Dropped");
        Path csv = dir.resolve("dropped.csv");
        StringBuilder rows = new StringBuilder("email,name\n");
        for (int i = 0; i < 20_000; i++) {
            rows.append("reader").append(i).append("@list.example,Reader ").append(i).append('\n');
        }
        Files.writeString(csv, rows);
        byte[] body = Files.readAllBytes(csv);
        String path = "/api/v1/campaigns/" + id + "/recipients/import";
        // The whole request goes out, then the client is gone before any answer.
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", api.adminPort())) {
            java.io.OutputStream out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                    + "\r\nContent-Type: text/csv\r\nIdempotency-Key: dropped-1\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
        }
        // A client retrying as told: 409 with Retry-After while the first is under way, then its answer.
        java.util.concurrent.atomic.AtomicReference<HttpResponse<String>> answer = new java.util.concurrent.atomic.AtomicReference<>();
        Awaitility.await("the retried upload's answer").atMost(java.time.Duration.ofSeconds(60))
                .pollInterval(java.time.Duration.ofMillis(50)).until(() -> {
                    answer.set(api.upload(token, path, csv, "Idempotency-Key", "dropped-1"));
                    return answer.get().statusCode() != 409;
                });
        HttpResponse<String> retried = answer.get();
        assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);
        assertThat(json(retried).get("imported").asLong() + json(retried).get("duplicates").asLong()).isEqualTo(20_000);
        assertThat(json(api.get(token, "/api/v1/campaigns/" + id)).get("report").get("counts").get("total").asLong()).isEqualTo(20_000);
    }

    @Test
    void suppressions_are_added_checked_listed_removed_with_why_and_imported_from_csv() throws Exception {
        assertThat(api.post(token, "/api/v1/suppressions", "{\"address\":\"Someone@Example.com\",\"reason\":\"manual\"}").statusCode())
                .isEqualTo(201);
        assertThat(api.post(token, "/api/v1/suppressions", "{\"address\":\"someone@example.com\"}").statusCode()).isEqualTo(200);
        assertThat(json(api.get(token, "/api/v1/suppressions/someone@example.com")).get("suppressed").asBoolean()).isTrue();
        Path csv = dir.resolve("list.csv");
        Files.writeString(csv, "email\na@x.example\nb@x.example\nnot-an-address\n");
        JsonNode imported = json(api.upload(token, "/api/v1/suppressions/import", csv));
        assertThat(imported.get("suppressed").asLong()).isEqualTo(2);
        assertThat(imported.get("rejected").asLong()).isEqualTo(1);
        JsonNode page = json(api.get(token, "/api/v1/suppressions?limit=2"));
        assertThat(page.get("suppressions")).hasSize(2);
        JsonNode rest = json(api.get(token, "/api/v1/suppressions?limit=2&cursor=" + page.get("next_cursor").asText()));
        assertThat(rest.get("suppressions")).hasSize(1);
        assertThat(rest.get("next_cursor").isNull()).isTrue();

        assertThat(api.call(token, "DELETE", "/api/v1/suppressions/someone@example.com", "application/json", "{}").statusCode())
                .isEqualTo(422);
        assertThat(api.call(token, "DELETE", "/api/v1/suppressions/someone@example.com", "application/json",
                "{\"why\":\"asked to be mailed again\"}").statusCode()).isEqualTo(200);
        JsonNode after = json(api.get(token, "/api/v1/suppressions/someone@example.com"));
        assertThat(after.get("suppressed").asBoolean()).isFalse();
        assertThat(after.get("last_removal").get("removed_by").asText()).isEqualTo("api:ops");
    }

    @Test
    void a_template_written_in_templates_dir_is_stored_then_listed_described_and_previewed() throws Exception {
        ObjectNode written = ApiHarness.JSON.createObjectNode().put("name", "newsletter");
        for (String[] part : new String[][] {{"subject", "subject.txt"}, {"text", "body.txt"}, {"html", "body.html"},
                {"properties", "template.properties"}}) {
            written.put(part[0], Files.readString(Path.of("templates/newsletter").resolve(part[1])));
        }
        assertThat(api.post(token, "/api/v1/templates", written.toString()).statusCode()).isEqualTo(201);
        assertThat(json(api.get(token, "/api/v1/templates")).get("templates").toString()).contains("newsletter");
        JsonNode t = json(api.get(token, "/api/v1/templates/newsletter"));
        assertThat(t.get("valid").asBoolean()).isTrue();
        JsonNode preview = json(api.post(token, "/api/v1/templates/newsletter/preview",
                "{\"email\":\"a@b.example\",\"name\":\"Ann\",\"fields\":{\"company\":\"Initech\"}}"));
        assertThat(preview.get("subject").asText()).contains("Initech");
        assertThat(api.get(token, "/api/v1/templates/nope").statusCode()).isEqualTo(404);
    }

    @Test
    void the_served_contract_is_the_checked_in_document_as_json() {
        HttpResponse<String> r = api.get(token, "/api/v1/openapi.json");
        assertThat(json(r)).isEqualTo(ContractValidator.read(ContractValidator.DOCUMENT));
    }

    @Test
    void the_contract_check_fails_on_a_response_that_departs_from_the_document() {
        String id = create("Checked");
        HttpResponse<String> real = api.get(token, "/api/v1/campaigns/" + id);
        ContractValidator contract = ContractValidator.ofDocument();
        assertThat(contract.check("GET", "/api/v1/campaigns/" + id, 200, real.headers(), real.body())).isEmpty();
        String wrong = real.body().replaceFirst("\"id\":" + id + ",", "\"id\":\"" + id + "\",");
        assertThat(contract.check("GET", "/api/v1/campaigns/" + id, 200, real.headers(), wrong)).isNotEmpty();
        assertThat(contract.check("GET", "/api/v1/campaigns/" + id, 200, real.headers(), real.body().replaceFirst("\\{", "{\"extra\":1,")))
                .isNotEmpty();
        assertThat(contract.check("GET", "/api/v1/campaigns/" + id, 418, real.headers(), real.body())).isNotEmpty();
        assertThat(contract.check("GET", "/api/v1/nowhere", 200, real.headers(), real.body())).isNotEmpty();
    }


    private static List<String> fieldsOf(HttpResponse<String> r) throws Exception {
        List<String> named = new ArrayList<>();
        json(r).get("errors").forEach(e -> named.add(e.get("field").asText()));
        return named;
    }
}
