package dev.mailrun.app;

import dev.mailrun.testing.StatusCounts;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.metrics.PrometheusTextAccess;
import dev.mailrun.scheduler.RunOutcome;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.io.BufferedWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin listener as the worker starts it: its routes answer only on its own port and only with the
 * bearer token, and its /metrics, read with a strict parser of the Prometheus text format, move by
 * exactly what a campaign run did.
 */
class AdminListenerTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final String TOKEN = "admin-token-for-tests-0123456789";
    private static final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));

    private Map<String, String> env() throws Exception {
        Map<String, String> env = WorkerEnv.of(db, greenMail.getSmtp().getPort());
        env.put("MAILRUN_HTTP_PORT", Integer.toString(freePort()));
        env.put("MAILRUN_ADMIN_PORT", Integer.toString(freePort()));
        env.put("MAILRUN_ADMIN_TOKEN", TOKEN);
        return env;
    }

    @Test
    void admin_routes_are_404_on_the_public_listener_and_401_without_the_token() throws Exception {
        try (AppContext ctx = AppContext.load(Optional.empty(), env(), clock);
             Services s = new Services(ctx, ProductionLinks::of);
             HttpEndpoint endpoint = HttpEndpoint.start(s, true)) {
            int pub = endpoint.port().orElseThrow();
            int admin = endpoint.adminPort().orElseThrow();
            for (String path : new String[] {"/metrics", "/health/live", "/health/ready", "/status", "/status.json"}) {
                assertThat(get(pub, path, Optional.of(TOKEN)).statusCode()).as("public " + path).isEqualTo(404);
                assertThat(get(admin, path, Optional.empty()).statusCode()).as("admin " + path + " without token").isEqualTo(401);
                assertThat(get(admin, path, Optional.of(TOKEN + "x")).statusCode()).as("wrong token").isEqualTo(401);
                assertThat(get(admin, path, Optional.of(TOKEN)).statusCode()).as("admin " + path).isIn(200, 503);
            }
            HttpResponse<String> adminMissing = get(admin, "/u/anything", Optional.of(TOKEN));
            assertThat(adminMissing.statusCode()).as("unsubscribe on admin").isEqualTo(404);
            // The public listener's 404 is in the public pages' shell; the admin listener's stays the bare page.
            HttpResponse<String> publicMissing = get(pub, "/metrics", Optional.empty());
            assertThat(publicMissing.body()).contains("<h1>Page not found</h1>", "<main>");
            assertThat(publicMissing.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp ->
                    assertThat(csp).startsWith("default-src 'none'; style-src 'sha256-"));
            assertThat(adminMissing.body()).contains("<h1>Not found</h1>").doesNotContain("<main>");
            assertThat(get(pub, "/u/not-a-token", Optional.empty()).statusCode()).as("unsubscribe stays public").isEqualTo(400);
            HttpResponse<String> status = get(admin, "/status", Optional.of(TOKEN));
            assertThat(status.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp ->
                    assertThat(csp).startsWith("default-src 'none'").doesNotContain("script"));
            assertThat(status.body()).doesNotContain("<script");
            HttpResponse<String> unauthorized = get(admin, "/metrics", Optional.empty());
            assertThat(unauthorized.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"mailrun admin\"");
            assertThat(unauthorized.body()).doesNotContain(TOKEN);
        }
    }

    @Test
    void metrics_parse_strictly_and_count_exactly_the_import_the_runs_and_the_recipients_of_a_campaign() throws Exception {
        try (AppContext ctx = AppContext.load(Optional.empty(), env(), clock);
             Services s = new Services(ctx, ProductionLinks::of);
             HttpEndpoint endpoint = HttpEndpoint.start(s, true);
             Scheduler scheduler = s.scheduler()) {
            int admin = endpoint.adminPort().orElseThrow();
            long id = s.campaigns().create(new NewCampaign("Metrics <&> \"quoted\"", "newsletter", "news@sender.example",
                    Optional.of("Sender"), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
            Path csv = dir.resolve("list.csv");
            try (BufferedWriter w = Files.newBufferedWriter(csv)) {
                w.write("email,name,city\n");
                for (int i = 0; i < 40; i++) {
                    w.write("reader" + i + "@list.example,Reader " + i + ",Oslo\n");
                }
                w.write("not-an-address,Broken,Oslo\nreader1@list.example,Again,Oslo\n");
            }
            var before = PrometheusTextAccess.parse(get(admin, "/metrics", Optional.of(TOKEN)).body());
            s.importer().importCsv(id, csv, Optional.empty(), n -> {});
            s.campaigns().start(id);
            String task = SendTask.taskName(id);
            for (int i = 0; i < 5 && s.campaigns().get(id).status().dbValue().equals("running"); i++) {
                scheduler.tick();
                clock.advance(Duration.ofMinutes(10));
            }
            assertThat(s.campaigns().get(id).status().dbValue()).isEqualTo("completed");
            long succeeded = s.tasks().recentRuns(task, 100).stream().filter(r -> r.outcome() == RunOutcome.SUCCEEDED).count();

            HttpResponse<String> response = get(admin, "/metrics", Optional.of(TOKEN));
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
            var after = PrometheusTextAccess.parse(response.body());

            assertThat(PrometheusTextAccess.families(after)).contains("jvm_memory_used_bytes", "process_cpu_usage",
                    "hikaricp_connections_active", "mailrun_runs_total", "mailrun_run_duration_seconds",
                    "mailrun_run_utilisation", "mailrun_run_overruns_total", "mailrun_run_overrun_seconds_total",
                    "mailrun_last_run_success_timestamp_seconds", "mailrun_import_rows_total", "mailrun_recipients",
                    "mailrun_campaign_status", "mailrun_campaign_self_paused", "mailrun_campaign_hard_bounce_rate",
                    "mailrun_campaign_hard_bounce_threshold", "mailrun_campaign_complaint_rate", "mailrun_campaign_complaint_threshold", "mailrun_scheduler_heartbeat_timestamp_seconds",
                    "mailrun_ready");
            assertThat(PrometheusTextAccess.type(after, "mailrun_run_duration_seconds")).isEqualTo("histogram");
            assertThat(delta(before, after, "mailrun_import_rows_total", Map.of("result", "accepted"))).isEqualTo(40);
            assertThat(delta(before, after, "mailrun_import_rows_total", Map.of("result", "rejected"))).isEqualTo(2);
            assertThat(value(after, "mailrun_runs_total", Map.of("task", task, "outcome", "succeeded"))).isEqualTo(succeeded);
            assertThat(value(after, "mailrun_run_duration_seconds", "mailrun_run_duration_seconds_count", Map.of("task", task)))
                    .isEqualTo(succeeded);
            assertThat(value(after, "mailrun_run_overruns_total", Map.of("task", task))).isZero();
            String campaign = Long.toString(id);
            assertThat(value(after, "mailrun_recipients", Map.of("campaign", campaign, "status", "sent"))).isEqualTo(40);
            assertThat(value(after, "mailrun_recipients", Map.of("campaign", campaign, "status", "pending"))).isZero();
            assertThat(value(after, "mailrun_campaign_status", Map.of("campaign", campaign, "status", "completed"))).isEqualTo(1);
            assertThat(value(after, "mailrun_campaign_status", Map.of("campaign", campaign, "status", "running"))).isZero();
            assertThat(value(after, "mailrun_campaign_self_paused", Map.of("campaign", campaign))).isZero();
            assertThat(value(after, "mailrun_campaign_hard_bounce_rate", Map.of("campaign", campaign))).isZero();
            assertThat(value(after, "mailrun_campaign_hard_bounce_threshold", Map.of())).isEqualTo(0.05);
            assertThat(value(after, "mailrun_campaign_complaint_rate", Map.of("campaign", campaign))).isZero();
            assertThat(value(after, "mailrun_campaign_complaint_threshold", Map.of())).isEqualTo(0.003);
            assertThat(greenMail.getReceivedMessages()).hasSize(40);
            // The sending path: exactly the 40 messages GreenMail received, each answered 250 after its permit.
            // Relays are labelled by name: the relay of the smtp.* keys is named default.
            String relay = "default";
            assertThat(value(after, "mailrun_messages_total", Map.of("campaign", campaign, "outcome", "sent"))).isEqualTo(40);
            assertThat(PrometheusTextAccess.value(after, "mailrun_messages_total", "mailrun_messages_total",
                    Map.of("campaign", campaign, "outcome", "failed"))).isEmpty();
            assertThat(value(after, "mailrun_smtp_replies_total", Map.of("relay", relay, "class", "2xx"))).isEqualTo(40);
            assertThat(value(after, "mailrun_rate_limiter_wait_seconds", "mailrun_rate_limiter_wait_seconds_count",
                    Map.of("relay", relay))).isEqualTo(40);
            assertThat(value(after, "mailrun_relay_rate_configured", Map.of("relay", relay))).isZero();
            assertThat(value(after, "mailrun_smtp_connections_open", Map.of("relay", relay))).isZero();
            assertThat(value(after, "mailrun_relay_messages_total", Map.of("relay", relay, "outcome", "sent"))).isEqualTo(40);

            // The campaign gauges read the database at most every 5 s of the clock: a change shows only then.
            try (Connection c = db.dataSource().getConnection(); Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE recipient SET status = 'failed', last_code = 550 WHERE campaign_id = " + id
                        + " AND email IN ('reader0@list.example', 'reader1@list.example')");
                st.executeUpdate("INSERT INTO bounce_event (recipient_id, kind, campaign_id, address, status, created_at)"
                        + " SELECT id, 'complaint', campaign_id, email, '', UTC_TIMESTAMP(3) FROM recipient WHERE campaign_id = " + id
                        + " AND email = 'reader2@list.example'");
            }
            StatusCounts.rebuild(db.dataSource(), Long.parseLong(String.valueOf(id)));
            var cached = PrometheusTextAccess.parse(get(admin, "/metrics", Optional.of(TOKEN)).body());
            assertThat(value(cached, "mailrun_recipients", Map.of("campaign", campaign, "status", "sent"))).isEqualTo(40);
            clock.advance(Duration.ofSeconds(5));
            var reread = PrometheusTextAccess.parse(get(admin, "/metrics", Optional.of(TOKEN)).body());
            assertThat(value(reread, "mailrun_recipients", Map.of("campaign", campaign, "status", "sent"))).isEqualTo(38);
            assertThat(value(reread, "mailrun_recipients", Map.of("campaign", campaign, "status", "failed"))).isEqualTo(2);
            assertThat(value(reread, "mailrun_campaign_hard_bounce_rate", Map.of("campaign", campaign))).isEqualTo(0.05);
            assertThat(value(reread, "mailrun_campaign_complaint_rate", Map.of("campaign", campaign))).isEqualTo(1.0 / 38);

            String json = get(admin, "/status.json", Optional.of(TOKEN)).body();
            assertThat(json).contains("\"name\" : \"Metrics <&> \\\"quoted\\\"\"").contains("\"sent\" : 38");
            String page = get(admin, "/status", Optional.of(TOKEN)).body();
            assertThat(page).contains("Metrics &lt;&amp;&gt; &quot;quoted&quot;").doesNotContain("Metrics <&>");
        }
    }

    private static double value(Map<String, ?> families, String family, Map<String, String> labels) {
        return value(families, family, family, labels);
    }

    private static double value(Map<String, ?> families, String family, String sample, Map<String, String> labels) {
        return PrometheusTextAccess.value(families, family, sample, labels)
                .orElseThrow(() -> new AssertionError("no sample " + sample + labels));
    }

    private static double delta(Map<String, ?> before, Map<String, ?> after, String family, Map<String, String> labels) {
        return value(after, family, labels) - PrometheusTextAccess.value(before, family, family, labels).orElse(0.0);
    }

    private static HttpResponse<String> get(int port, String path, Optional<String> token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20));
        token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
