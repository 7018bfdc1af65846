package dev.mailrun.app.api;

import static dev.mailrun.app.api.ApiHarness.json;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * Who may do what through the API: no, wrong or revoked token and a missing scope are refused and
 * change nothing; the API is not on the public listener; a token shows up in no log line and no
 * answer; the rate limit answers 429; a thousand requests at once leave the server answering.
 */
class ApiSecurityTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final String CREATE = "{\"name\":\"N\",\"template\":\"newsletter\",\"from\":\"news@sender.example\"}";

    private final SettableClock clock = SettableClock.at("2026-11-21T10:00:00Z");
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private ApiHarness api;

    @BeforeEach
    void start() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task")) {
                s.execute("DELETE FROM " + table);
            }
        }
        logged.start();
        root.addAppender(logged);
    }

    private void open(Map<String, String> extra) throws Exception {
        Map<String, String> env = WorkerEnv.of(db, 2525);
        env.putAll(extra);
        api = new ApiHarness(env, clock);
    }

    @AfterEach
    void stop() {
        root.detachAppender(logged);
        if (api != null) {
            api.close();
        }
    }

    private long campaigns() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM campaign")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void no_wrong_or_revoked_token_and_a_missing_scope_are_refused_and_change_nothing() throws Exception {
        open(Map.of());
        String writer = api.token("writer", ApiScope.CAMPAIGNS_WRITE);
        String reader = api.token("reader", ApiScope.CAMPAIGNS_READ);
        String revoked = api.token("gone", ApiScope.ADMIN);
        api.services.apiTokens().revoke("gone");

        for (String token : new String[] {null, "mrt_not-a-token", writer + "x", revoked, "Bearer"}) {
            HttpResponse<String> r = api.post(token, "/api/v1/campaigns", CREATE);
            assertThat(r.statusCode()).as(String.valueOf(token)).isEqualTo(401);
            assertThat(r.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"mailrun api\"");
            assertThat(api.get(token, "/api/v1/campaigns").statusCode()).isEqualTo(401);
        }
        HttpResponse<String> forbidden = api.post(reader, "/api/v1/campaigns", CREATE);
        assertThat(forbidden.statusCode()).isEqualTo(403);
        assertThat(json(forbidden).get("detail").asText()).contains("campaigns:write");
        assertThat(api.get(writer, "/api/v1/campaigns").statusCode()).isEqualTo(403);
        assertThat(campaigns()).isZero();

        assertThat(api.post(writer, "/api/v1/campaigns", CREATE).statusCode()).isEqualTo(201);
        assertThat(api.get(reader, "/api/v1/campaigns").statusCode()).isEqualTo(200);
        assertThat(api.get(ApiHarness.ADMIN_TOKEN, "/api/v1/campaigns").statusCode()).as("admin.token counts as admin").isEqualTo(200);
        assertThat(campaigns()).isOne();

        List<String> audit = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT token_name, action, status FROM api_audit ORDER BY id")) {
            while (rs.next()) {
                audit.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getInt(3));
            }
        }
        // Ten refusals from one source in one minute: a row for the first and one at the tenth.
        assertThat(audit).containsExactly("- authenticate 401", "- authenticate 401", "reader campaign.create 403",
                "writer campaign.create 201");
    }

    @Test
    void refused_requests_are_audited_per_source_and_minute_at_the_first_and_each_tenth_power_without_the_token() throws Exception {
        open(Map.of());
        String wrong = api.token("crm", ApiScope.CAMPAIGNS_READ) + "-wrong";
        for (int i = 0; i < 250; i++) {
            assertThat(api.get(wrong, "/api/v1/campaigns").statusCode()).isEqualTo(401);
        }
        clock.advance(Duration.ofMinutes(1));
        assertThat(api.post(null, "/api/v1/campaigns", CREATE).statusCode()).isEqualTo(401);

        List<String> rows = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT token_name, action, target, status, detail FROM api_audit ORDER BY id")) {
            while (rs.next()) {
                rows.add(String.join(" | ", rs.getString(1), rs.getString(2), rs.getString(3), Integer.toString(rs.getInt(4)),
                        rs.getString(5)));
            }
        }
        assertThat(rows).hasSize(4).allSatisfy(r -> assertThat(r).startsWith("- | authenticate | 127.0.0.1 | 401 | ")
                .doesNotContain(wrong).doesNotContain(wrong.substring(4, 20)));
        assertThat(rows.get(0)).endsWith("refused: no valid token (GET /api/v1/campaigns)");
        assertThat(rows.get(1)).contains("10 refused requests without a valid token in the minute from 2026-11-21T10:00:00Z");
        assertThat(rows.get(2)).contains("100 refused requests");
        assertThat(rows.get(3)).as("a new minute starts a new count").endsWith("refused: no valid token (POST /api/v1/campaigns)");
        assertThat(campaigns()).isZero();
    }

    @Test
    void the_api_is_not_on_the_public_listener_and_api_tokens_do_not_open_the_other_admin_routes() throws Exception {
        open(Map.of());
        String admin = api.token("ops", ApiScope.ADMIN);
        HttpResponse<String> pub = api.send(api.publicPort(), admin, "GET", "/api/v1/campaigns", null, HttpRequest.BodyPublishers.noBody());
        assertThat(pub.statusCode()).isEqualTo(404);
        assertThat(api.send(api.publicPort(), ApiHarness.ADMIN_TOKEN, "GET", "/api/v1/openapi.json", null,
                HttpRequest.BodyPublishers.noBody()).statusCode()).isEqualTo(404);
        assertThat(api.send(api.adminPort(), admin, "GET", "/metrics", null, HttpRequest.BodyPublishers.noBody()).statusCode())
                .isEqualTo(401);
        assertThat(api.send(api.adminPort(), null, "GET", "/nowhere", null, HttpRequest.BodyPublishers.noBody()).statusCode())
                .isEqualTo(401);
    }

    @Test
    void a_token_never_appears_in_a_log_line_or_an_answer() throws Exception {
        open(Map.of());
        String token = api.token("crm", ApiScope.CAMPAIGNS_READ);
        List<String> bodies = new ArrayList<>();
        bodies.add(api.get(token, "/api/v1/campaigns").body());
        bodies.add(api.post(token, "/api/v1/campaigns", CREATE).body());
        bodies.add(api.get(token + "-wrong", "/api/v1/campaigns").body());
        bodies.add(api.get(token, "/api/v1/campaigns/99").body());
        bodies.add(api.send(api.adminPort(), ApiHarness.ADMIN_TOKEN, "GET", "/api/v1/nowhere", null, HttpRequest.BodyPublishers.noBody()).body());
        String secret = token.substring(4);
        assertThat(bodies).noneMatch(b -> b.contains(secret) || b.contains(ApiHarness.ADMIN_TOKEN));
        assertThat(logged.list).isNotEmpty();
        assertThat(logged.list).noneMatch(e -> e.getFormattedMessage().contains(secret)
                || e.getFormattedMessage().contains(ApiHarness.ADMIN_TOKEN)
                || (e.getThrowableProxy() != null && e.getThrowableProxy().getMessage() != null
                        && e.getThrowableProxy().getMessage().contains(secret)));
    }

    @Test
    void over_the_rate_a_token_gets_429_with_retry_after_and_is_let_through_again_as_time_passes() throws Exception {
        open(Map.of("MAILRUN_API_RATE", "1", "MAILRUN_API_BURST", "2"));
        String token = api.token("busy", ApiScope.CAMPAIGNS_READ);
        String other = api.token("calm", ApiScope.CAMPAIGNS_READ);
        assertThat(api.get(token, "/api/v1/campaigns").statusCode()).isEqualTo(200);
        assertThat(api.get(token, "/api/v1/campaigns").statusCode()).isEqualTo(200);
        HttpResponse<String> limited = api.get(token, "/api/v1/campaigns");
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(api.get(other, "/api/v1/campaigns").statusCode()).as("another token has its own budget").isEqualTo(200);
        clock.advance(Duration.ofSeconds(1));
        assertThat(api.get(token, "/api/v1/campaigns").statusCode()).isEqualTo(200);
    }

    @Test
    void an_upload_over_the_limit_is_413_imports_nobody_and_leaves_no_file_behind() throws Exception {
        open(Map.of("MAILRUN_API_MAX_UPLOAD_BYTES", "4096"));
        String token = api.token("crm", ApiScope.CAMPAIGNS_WRITE, ApiScope.RECIPIENTS_WRITE, ApiScope.CAMPAIGNS_READ);
        String id = json(api.post(token, "/api/v1/campaigns", CREATE)).get("id").asText();
        java.nio.file.Path csv = java.nio.file.Files.createTempFile("api-test-", ".csv");
        StringBuilder rows = new StringBuilder("email,name\n");
        for (int i = 0; rows.length() < 10_000; i++) {
            rows.append("reader").append(i).append("@list.example,Reader\n");
        }
        java.nio.file.Files.writeString(csv, rows);
        long before = uploads();
        HttpResponse<String> r = api.upload(token, "/api/v1/campaigns/" + id + "/recipients/import", csv);
        assertThat(r.statusCode()).isEqualTo(413);
        assertThat(json(r).get("detail").asText()).contains("api.max-upload-bytes");
        assertThat(json(api.get(token, "/api/v1/campaigns/" + id)).get("report").get("counts").get("total").asLong()).isZero();
        assertThat(uploads()).isEqualTo(before);
        java.nio.file.Files.delete(csv);
    }

    private static long uploads() throws Exception {
        try (var files = java.nio.file.Files.list(java.nio.file.Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.filter(f -> f.getFileName().toString().startsWith("mailrun-upload-")).count();
        }
    }

    @Test
    void a_thousand_requests_at_once_are_all_answered_and_the_server_answers_after() throws Exception {
        open(Map.of("MAILRUN_API_RATE", "10000", "MAILRUN_API_BURST", "100000"));
        String token = api.token("crowd", ApiScope.CAMPAIGNS_READ);
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
        List<CompletableFuture<Integer>> answers = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.adminPort() + "/api/v1/campaigns"))
                    .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(120)).build();
            answers.add(client.sendAsync(request, HttpResponse.BodyHandlers.discarding()).thenApply(HttpResponse::statusCode)
                    .exceptionally(t -> -1));
        }
        CompletableFuture.allOf(answers.toArray(new CompletableFuture[0])).get(180, TimeUnit.SECONDS);
        long ok = answers.stream().filter(a -> a.join() == 200).count();
        assertThat(answers).allSatisfy(a -> assertThat(a.join()).isIn(200, 503, -1));
        assertThat(ok).isGreaterThan(0);
        assertThat(api.get(token, "/api/v1/campaigns").statusCode()).isEqualTo(200);
    }
}
