package dev.mailrun.app.api;

import static dev.mailrun.app.api.ApiHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** What the API refuses, and how its problems name what was wrong: in the client's terms, never the server's. */
class ApiRefusalsTest {

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
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "suppression", "campaign", "task")) {
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

    @Test
    void a_refused_upload_is_named_as_the_upload_never_by_the_servers_temporary_file() throws Exception {
        HttpResponse<String> created = api.post(token, "/api/v1/campaigns",
                "{\"name\":\"Upload\",\"template\":\"newsletter\",\"from\":\"news@sender.example\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = json(created).get("id").asText();
        Path broken = dir.resolve("broken.csv");
        Files.writeString(broken, "email,name\n\"unterminated@example.com,Oops\nlate@example.com,\"Late\"\n");
        Path noColumn = dir.resolve("no-column.csv");
        Files.writeString(noColumn, "mail\na@example.com\n");

        for (HttpResponse<String> r : List.of(api.upload(token, "/api/v1/campaigns/" + id + "/recipients/import", broken),
                api.upload(token, "/api/v1/campaigns/" + id + "/recipients/import", noColumn),
                api.upload(token, "/api/v1/suppressions/import", broken),
                api.upload(token, "/api/v1/suppressions/import", noColumn))) {
            assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
            JsonNode problem = json(r);
            assertThat(problem.get("detail").asText()).as(r.body()).startsWith("the upload: ")
                    .doesNotContain("mailrun-upload").doesNotContain(System.getProperty("java.io.tmpdir"));
        }
    }
    @Test
    void a_create_with_an_unknown_template_and_other_bad_fields_names_every_field_at_once_in_the_apis_words() {
        HttpResponse<String> r = api.post(token, "/api/v1/campaigns",
                "{\"name\":\"Bad\",\"template\":\"no-such-template\",\"from\":\"news@sender.example\",\"rate\":0,"
                        + "\"expire_at\":\"2020-01-01T00:00:00Z\",\"variants\":[\"A\",\"B:subject=Y\"],\"test_share\":20,"
                        + "\"pick_by\":\"clicks\"}");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
        JsonNode errors = json(r).get("errors");
        assertThat(errors).as(r.body()).isNotNull();
        List<String> fields = new java.util.ArrayList<>();
        errors.forEach(e -> {
            fields.add(e.get("field").asText());
            assertThat(e.get("reason").asText()).as(r.body()).doesNotContain("--");
        });
        assertThat(fields).as(r.body()).contains("template", "rate", "pick_by");
        assertThat(json(api.get(token, "/api/v1/campaigns")).get("campaigns")).isEmpty();
    }

    @Test
    void a_member_or_query_parameter_by_its_old_camel_case_name_is_422_naming_it_and_the_name_it_stands_for() {
        HttpResponse<String> r = api.post(token, "/api/v1/campaigns",
                "{\"name\":\"Old\",\"template\":\"newsletter\",\"from\":\"news@sender.example\",\"fromName\":\"News\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
        assertThat(json(r).get("errors").get(0).get("field").asText()).isEqualTo("fromName");
        assertThat(json(r).get("detail").asText()).isEqualTo("fromName: unknown field; the API's names are snake_case: from_name");
        HttpResponse<String> unknown = api.post(token, "/api/v1/campaigns",
                "{\"name\":\"Old\",\"template\":\"newsletter\",\"from\":\"news@sender.example\",\"colour\":\"red\"}");
        assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(422);
        assertThat(json(unknown).get("detail").asText()).isEqualTo("colour: unknown field");
        assertThat(json(api.get(token, "/api/v1/campaigns")).get("campaigns")).as("nothing created").isEmpty();

        HttpResponse<String> list = api.get(token, "/api/v1/campaigns?createdSince=2026-01-01T00:00:00Z");
        assertThat(list.statusCode()).as(list.body()).isEqualTo(422);
        assertThat(json(list).get("detail").asText())
                .isEqualTo("createdSince: unknown query parameter; the API's names are snake_case: created_since");
        assertThat(api.get(token, "/api/v1/templates?limit=5").statusCode()).as("a parameter the operation does not read").isEqualTo(422);
    }

    @Test
    void a_create_with_an_unknown_template_alone_is_422_naming_template() {
        HttpResponse<String> r = api.post(token, "/api/v1/campaigns",
                "{\"name\":\"Bad\",\"template\":\"no-such-template\",\"from\":\"news@sender.example\"}");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
        assertThat(json(r).get("errors")).as(r.body()).hasSize(1);
        assertThat(json(r).get("errors").get(0).get("field").asText()).isEqualTo("template");
    }

    @Test
    void start_while_a_setting_sending_needs_is_missing_is_409_naming_it_and_the_campaign_stays_a_draft() throws Exception {
        java.util.Map<String, String> env = WorkerEnv.of(db, 2525);
        env.remove("MAILRUN_UNSUBSCRIBE_BASE_URL");
        try (ApiHarness unconfigured = new ApiHarness(env, clock)) {
            HttpResponse<String> created = unconfigured.post(ApiHarness.ADMIN_TOKEN, "/api/v1/campaigns",
                    "{\"name\":\"No base URL\",\"template\":\"newsletter\",\"from\":\"news@sender.example\"}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            String id = json(created).get("id").asText();
            Path csv = dir.resolve("list.csv");
            Files.writeString(csv, "email,name,city\nann@list.example,Ann,Oslo\n");
            HttpResponse<String> imported = unconfigured.upload(ApiHarness.ADMIN_TOKEN, "/api/v1/campaigns/" + id + "/recipients/import", csv);
            assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);

            HttpResponse<String> refused = unconfigured.post(ApiHarness.ADMIN_TOKEN, "/api/v1/campaigns/" + id + "/start", null);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
            assertThat(json(refused).get("detail").asText()).contains("unsubscribe.base-url");
            assertThat(json(unconfigured.get(ApiHarness.ADMIN_TOKEN, "/api/v1/campaigns/" + id)).get("status").asText()).isEqualTo("draft");
        }
    }
}
