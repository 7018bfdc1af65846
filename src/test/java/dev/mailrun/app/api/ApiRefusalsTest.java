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
}
