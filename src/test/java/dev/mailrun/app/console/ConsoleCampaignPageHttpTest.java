package dev.mailrun.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A campaign's page over plain HTTP while it sends through GreenMail: the status page's charts of it,
 * the same markup as /status draws, and a page that reloads itself while the campaign runs — with no
 * field to fill in then — and not once it is done, nor as a draft; a draft's web version set on its page,
 * and chosen on the new-campaign page.
 */
class ConsoleCampaignPageHttpTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final String REFRESH = "<meta http-equiv=\"refresh\" content=\"10\">";
    private static final Pattern INPUT = Pattern.compile("<(input|textarea|select)\\b[^>]*>");

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-26T10:00:00Z"), Duration.ofMillis(1));

    @BeforeEach
    void clean() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task")) {
                s.execute("DELETE FROM " + table);
            }
        }
    }

    @Test
    void a_campaign_that_has_sent_shows_the_status_pages_charts_of_it() throws Exception {
        try (ConsoleClient app = new ConsoleClient(WorkerEnv.of(db, greenMail.getSmtp().getPort()), clock);
             Scheduler scheduler = app.services.scheduler()) {
            String session = app.login(app.token("ops", ApiScope.ADMIN));
            long id = sendAll(app, scheduler, session, 3);
            String page = app.get(session, "/console/campaigns/" + id).body();
            String charts = charts(page);
            assertThat(charts).contains("<svg class=\"chart timeline\"", "<svg class=\"chart rate\"", "<svg class=\"chart outcomes\"",
                    "id=\"c" + id + "-timeline-desc\">1 run(s) from ", "sent 3, failed 0, suppressed 0",
                    "<tr><td>sent</td><td>3</td><td>100.0%</td></tr>");
            assertThat(charts).as("drawn as the status page draws them").isEqualTo(charts(app.get(session, "/status").body()));
            // The run's recipients by what became of them: sent, suppressed, failed, deferred, handed back.
            assertThat(page).contains("<th scope=\"col\">sent</th><th scope=\"col\">suppressed</th>",
                    "<th scope=\"col\">handed back</th>", "<td>succeeded</td>\n    <td>3</td><td>0</td><td>0</td><td>0</td>");
            assertThat(page).as("no inline style: the policy would block it").doesNotContain("style=", "<style", "<script");
            String css = app.get(session, "/console/console.css").body();
            assertThat(css).as("the charts' classes are in the console's style sheet").contains("svg.chart .st-sent",
                    "svg.chart .bar.ok", "svg.chart .threshold");
        }
    }

    @Test
    void the_page_reloads_itself_while_the_campaign_runs_and_not_when_it_is_a_draft_or_done() throws Exception {
        try (ConsoleClient app = new ConsoleClient(WorkerEnv.of(db, greenMail.getSmtp().getPort()), clock);
             Scheduler scheduler = app.services.scheduler()) {
            String session = app.login(app.token("ops", ApiScope.ADMIN));
            long id = app.campaign("Live");
            app.importThroughApi(id, csv(2));
            String path = "/console/campaigns/" + id;
            assertThat(app.get(session, path).body()).as("a draft").doesNotContain(REFRESH, "http-equiv");

            assertThat(app.post(session, path + "/start", Map.of("csrf", app.csrf(session, path))).statusCode()).isEqualTo(303);
            String running = app.get(session, path).body();
            assertThat(running).contains("badge running", REFRESH, "id=\"live\"", "id=\"pause\" href=\"" + path + "/pause\"");
            Matcher input = INPUT.matcher(running);
            while (input.find()) {
                assertThat(input.group()).as("a page that reloads holds no field to fill in").contains("type=\"hidden\"");
            }
            String pause = app.get(session, path + "/pause").body();
            assertThat(pause).as("the form with a field to fill in is a page that stays").contains("id=\"pause-reason\"")
                    .doesNotContain("http-equiv");
            assertThat(app.get(session, "/console/campaigns/new").body()).doesNotContain("http-equiv");

            scheduler.tick();
            assertThat(greenMail.getReceivedMessages()).hasSize(2);
            assertThat(app.get(session, path).body()).as("done").contains("badge completed").doesNotContain("http-equiv", "id=\"live\"");
        }
    }

    @Test
    void a_drafts_web_version_is_set_on_its_page_and_chosen_at_creation_and_a_bad_value_is_named_beside_the_field()
            throws Exception {
        try (ConsoleClient app = new ConsoleClient(WorkerEnv.of(db, greenMail.getSmtp().getPort()), clock)) {
            String session = app.login(app.token("ops", ApiScope.ADMIN));
            long id = app.campaign("Private");
            String path = "/console/campaigns/" + id;
            assertThat(app.get(session, path).body()).contains("<strong>personal</strong> (webversion.personal).",
                    "<option value=\"personal\" selected>", "id=\"set-web-version\"");

            String csrf = app.csrf(session, path);
            HttpResponse<String> bad = app.post(session, path + "/web-version", Map.of("csrf", csrf, "webVersion", "public"));
            assertThat(bad.statusCode()).isEqualTo(422);
            assertThat(bad.body()).contains("aria-invalid=\"true\" aria-describedby=\"webVersion-error\"",
                    "<p class=\"field-error\" id=\"webVersion-error\">must be personal or anonymous, got &#39;public&#39;</p>");
            HttpResponse<String> set = app.post(session, path + "/web-version", Map.of("csrf", csrf, "webVersion", "anonymous"));
            assertThat(set.statusCode()).isEqualTo(303);
            assertThat(app.get(session, path).body()).contains("Campaign " + id + "&#39;s web version pages are anonymous.",
                    "only the campaign's fields, without the recipient's: <strong>anonymous</strong>.",
                    "<option value=\"anonymous\" selected>");
            assertThat(ConsoleClient.audit(db.dataSource())).contains("ops campaign.web-version " + path + "/web-version 422",
                    "ops campaign.web-version " + path + "/web-version 200");

            Map<String, String> form = new HashMap<>(Map.of("csrf", csrf, "template", "newsletter", "name", "Chosen",
                    "from", "news@sender.example", "webVersion", "nobody"));
            HttpResponse<String> refused = app.post(session, "/console/campaigns/new", form);
            assertThat(refused.statusCode()).isEqualTo(422);
            assertThat(refused.body()).contains("<li>Web version: must be personal or anonymous, got &#39;nobody&#39;</li>",
                    "<p class=\"field-error\" id=\"webVersion-error\">");
            form.put("webVersion", "anonymous");
            String created = app.post(session, "/console/campaigns/new", form).headers().firstValue("Location").orElseThrow();
            assertThat(app.get(session, created).body()).contains("<strong>anonymous</strong>.");

            assertThat(app.post(session, path + "/cancel", Map.of("csrf", csrf, "confirm", "yes")).statusCode()).isEqualTo(303);
            assertThat(app.get(session, path).body()).as("no form once it is no draft").doesNotContain("id=\"set-web-version\"");
            assertThat(app.post(session, path + "/web-version", Map.of("csrf", csrf, "webVersion", "personal")).statusCode())
                    .isEqualTo(303);
            assertThat(app.get(session, path).body()).contains("campaign " + id + " is cancelled; its web version changes only "
                    + "while it is a draft or scheduled.", "<strong>anonymous</strong>.");
        }
    }

    /** A campaign of {@code n} recipients, started from its page and sent by one tick; its id. */
    private long sendAll(ConsoleClient app, Scheduler scheduler, String session, int n) throws Exception {
        long id = app.campaign("Charted");
        app.importThroughApi(id, csv(n));
        String path = "/console/campaigns/" + id;
        assertThat(app.post(session, path + "/start", Map.of("csrf", app.csrf(session, path))).statusCode()).isEqualTo(303);
        scheduler.tick();
        assertThat(greenMail.getReceivedMessages()).hasSize(n);
        return id;
    }

    /** The charts' markup on a page: from their {@code <div class="charts">} to the end of the last figure. */
    private static String charts(String page) {
        int from = page.indexOf("<div class=\"charts\">");
        assertThat(from).as("charts on the page").isNotNegative();
        String end = "</figure>\n</div>\n";
        int to = page.indexOf(end, page.indexOf("-outcomes-title", from));
        return page.substring(from, to + end.length());
    }

    private Path csv(int n) throws Exception {
        StringBuilder rows = new StringBuilder("email,name\n");
        for (int i = 0; i < n; i++) {
            rows.append("reader").append(i).append("@list.example,Reader ").append(i).append('\n');
        }
        return Files.writeString(dir.resolve("list-" + n + ".csv"), rows);
    }
}
