package dev.mailrun.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The console over plain HTTP, without a browser: its headers on every page, the login and the
 * session cookie's flags, CSRF on every change, scopes checked on the server whatever the page shows,
 * the idle timeout on the injected clock, logout, and /status opened by a console session.
 */
class ConsoleHttpTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-26T10:00:00Z");
    private ConsoleClient console;

    @BeforeEach
    void start() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task")) {
                s.execute("DELETE FROM " + table);
            }
        }
        console = new ConsoleClient(WorkerEnv.of(db, 2525), clock);
    }

    @AfterEach
    void stop() {
        console.close();
    }

    @Test
    void every_console_answer_carries_the_policy_headers() {
        String session = console.login(console.token("ops", ApiScope.ADMIN));
        long id = console.campaign("Headers");
        for (HttpResponse<String> r : List.of(console.get(null, "/console/login"), console.get(session, "/console/campaigns"),
                console.get(session, "/console/campaigns/" + id), console.get(session, "/console/campaigns/" + id + "/cancel"),
                console.get(session, "/console/campaigns/999999"), console.post(session, "/console/campaigns/" + id + "/start",
                        Map.of()))) {
            String where = r.request().method() + " " + r.request().uri().getPath() + " " + r.statusCode();
            String csp = r.headers().firstValue("Content-Security-Policy").orElse("");
            assertThat(csp).as(where).contains("default-src 'none'", "frame-ancestors 'none'", "form-action 'self'")
                    .doesNotContain("script-src", "unsafe-inline");
            assertThat(r.headers().firstValue("X-Frame-Options")).as(where).hasValue("DENY");
            assertThat(r.headers().firstValue("Referrer-Policy")).as(where).hasValue("same-origin");
            assertThat(r.headers().firstValue("Cache-Control")).as(where).hasValue("no-store");
            assertThat(r.headers().firstValue("X-Content-Type-Options")).as(where).hasValue("nosniff");
        }
        assertThat(console.get(session, "/console/campaigns/999999").statusCode()).isEqualTo(404);
    }

    @Test
    void a_login_gives_a_session_cookie_with_its_flags_and_a_bad_token_gives_none() {
        HttpResponse<String> bad = console.loginForm("mrt_not-a-token");
        assertThat(bad.statusCode()).isEqualTo(401);
        assertThat(bad.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("mailrun_console="));
        assertThat(bad.body()).contains("That token is not valid");

        String token = console.token("ops", ApiScope.CAMPAIGNS_READ);
        HttpResponse<String> foreign = console.post(null, "/console/login", Map.of("token", token, "login", "A".repeat(43)));
        assertThat(foreign.statusCode()).as("a login form without its cookie: posted from another site").isEqualTo(403);
        assertThat(foreign.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("mailrun_console="));
        HttpResponse<String> ok = console.loginForm(token);
        assertThat(ok.statusCode()).isEqualTo(303);
        assertThat(ok.headers().firstValue("Location")).hasValue("/console/campaigns");
        String cookie = ok.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("mailrun_console=")).findFirst().orElseThrow();
        assertThat(cookie).startsWith("mailrun_console=").contains("; HttpOnly", "; SameSite=Strict", "; Path=/")
                .as("plain http: not Secure, or the browser would never send it back").doesNotContain("Secure");
        assertThat(cookie).doesNotContain("Max-Age").doesNotContain("Expires");

        HttpResponse<String> list = console.get(ConsoleClient.cookieValue(cookie), "/console/campaigns");
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.body()).contains("Logged in as <strong>ops</strong>");
        assertThat(console.get(null, "/console/campaigns").headers().firstValue("Location")).hasValue("/console/login");
        assertThat(console.get("A".repeat(43), "/console/campaigns").headers().firstValue("Location")).hasValue("/console/login");
    }

    @Test
    void a_change_needs_the_sessions_csrf_token_and_its_own_origin() throws Exception {
        String session = console.login(console.token("ops", ApiScope.ADMIN));
        long id = console.campaign("Csrf");
        String path = "/console/campaigns/" + id + "/cancel";

        HttpResponse<String> none = console.post(session, path, Map.of("confirm", "yes"));
        assertThat(none.statusCode()).isEqualTo(403);
        assertThat(none.body()).contains("security token");
        String otherSession = console.login(console.token("other", ApiScope.ADMIN));
        String othersToken = console.csrf(otherSession, "/console/campaigns");
        assertThat(console.post(session, path, Map.of("confirm", "yes", "csrf", othersToken)).statusCode())
                .as("another session's token").isEqualTo(403);
        String csrf = console.csrf(session, "/console/campaigns/" + id);
        assertThat(console.post(session, path, Map.of("confirm", "yes", "csrf", csrf), "Origin", "http://evil.example").statusCode())
                .as("a foreign Origin").isEqualTo(403);
        assertThat(console.post(null, path, Map.of("confirm", "yes", "csrf", csrf)).statusCode()).as("no session").isEqualTo(403);
        assertThat(status(id)).isEqualTo("draft");

        HttpResponse<String> done = console.post(session, path, Map.of("confirm", "yes", "csrf", csrf), "Origin", console.base());
        assertThat(done.statusCode()).isEqualTo(303);
        assertThat(status(id)).isEqualTo("cancelled");
        assertThat(console.get(session, "/console/campaigns/" + id).body()).contains("is cancelled: nothing more will be sent");
        assertThat(audit()).containsExactly("ops campaign.cancel /console/campaigns/" + id + "/cancel 200");
        assertThat(console.get(session, "/console/audit").body()).as("the audit page names who did what")
                .contains("<td>ops</td><td>campaign.cancel</td><td>/console/campaigns/" + id + "/cancel</td>");
    }

    @Test
    void a_read_only_token_sees_no_write_buttons_and_a_forged_post_is_forbidden() throws Exception {
        String session = console.login(console.token("viewer", ApiScope.CAMPAIGNS_READ));
        long id = console.campaign("Read only");
        HttpResponse<String> page = console.get(session, "/console/campaigns/" + id);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("Export recipients").doesNotContain("/start\"", "id=\"start\"", "/cancel\"", "Actions");
        String csrf = console.csrf(session, "/console/campaigns/" + id);

        HttpResponse<String> forged = console.post(session, "/console/campaigns/" + id + "/start", Map.of("csrf", csrf));
        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(forged.body()).contains("campaigns:write");
        assertThat(console.get(session, "/console/campaigns/" + id + "/cancel").statusCode()).isEqualTo(403);
        assertThat(console.get(session, "/console/audit").statusCode()).as("the audit trail is the admin's").isEqualTo(403);
        assertThat(status(id)).isEqualTo("draft");
        assertThat(audit()).containsExactly("viewer campaign.start /console/campaigns/" + id + "/start 403");
    }

    @Test
    void a_session_ends_when_idle_and_at_logout() {
        String session = console.login(console.token("ops", ApiScope.CAMPAIGNS_READ));
        clock.advance(Duration.ofMinutes(29));
        assertThat(console.get(session, "/console/campaigns").statusCode()).as("used within the idle time").isEqualTo(200);
        clock.advance(Duration.ofMinutes(29));
        assertThat(console.get(session, "/console/campaigns").statusCode()).as("the idle time restarts at each use").isEqualTo(200);
        clock.advance(Duration.ofMinutes(30));
        assertThat(console.get(session, "/console/campaigns").headers().firstValue("Location")).hasValue("/console/login");

        String again = console.login(console.token("ops2", ApiScope.CAMPAIGNS_READ));
        String csrf = console.csrf(again, "/console/campaigns");
        HttpResponse<String> out = console.post(again, "/console/logout", Map.of("csrf", csrf));
        assertThat(out.statusCode()).isEqualTo(303);
        assertThat(out.headers().firstValue("Set-Cookie").orElseThrow()).contains("Max-Age=0", "HttpOnly", "SameSite=Strict");
        assertThat(console.get(again, "/console/campaigns").headers().firstValue("Location")).hasValue("/console/login");
    }

    @Test
    void the_status_page_opens_with_a_console_session_that_may_read_campaigns() {
        assertThat(console.get(null, "/status").statusCode()).as("admin.token is set").isEqualTo(401);
        String reader = console.login(console.token("reader", ApiScope.CAMPAIGNS_READ));
        HttpResponse<String> status = console.get(reader, "/status");
        assertThat(status.statusCode()).isEqualTo(200);
        assertThat(status.body()).contains("mailrun status");
        String suppressionsOnly = console.login(console.token("lists", ApiScope.SUPPRESSIONS_READ));
        assertThat(console.get(suppressionsOnly, "/status").statusCode()).isEqualTo(401);
        assertThat(console.get(reader, "/metrics").statusCode()).as("only the routes that open in a browser").isEqualTo(401);
    }

    @Test
    void values_from_the_database_are_escaped() {
        String session = console.login(console.token("ops", ApiScope.ADMIN));
        long id = console.campaign("<script>alert(1)</script> & \"friends\"");
        for (String path : List.of("/console/campaigns", "/console/campaigns/" + id)) {
            String body = console.get(session, path).body();
            assertThat(body).as(path).doesNotContain("<script>").contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;friends&quot;");
        }
    }

    @Test
    void a_new_campaign_shows_each_check_next_to_its_field_and_is_created_when_valid() throws Exception {
        String session = console.login(console.token("ops", ApiScope.ADMIN));
        HttpResponse<String> page = console.get(session, "/console/campaigns/new?template=newsletter&sampleName=Ada&sampleFields=company%3DInitech");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("id=\"preview-subject\">preview: what&#39;s new at Initech</dd>", "Hi Ada,",
                "<iframe class=\"preview\" id=\"preview-html\" title=\"HTML part of the preview\" sandbox src=");
        String csrf = console.csrf(session, "/console/campaigns/new?template=newsletter");

        HttpResponse<String> bad = console.post(session, "/console/campaigns/new", Map.of("csrf", csrf, "template", "newsletter",
                "name", "Spring", "from", "news@sender.example", "rate", "fast", "windows", "Mon-Fri 25:00-26:00 UTC"));
        assertThat(bad.statusCode()).isEqualTo(422);
        assertThat(bad.body()).contains("id=\"rate-error\">must be a number");
        HttpResponse<String> window = console.post(session, "/console/campaigns/new", Map.of("csrf", csrf, "template", "newsletter",
                "name", "Spring", "from", "news@sender.example", "windows", "Mon-Fri 25:00-26:00 UTC", "startAt", "soon"));
        assertThat(window.statusCode()).isEqualTo(422);
        assertThat(window.body()).contains("id=\"windows-error\">&#39;Mon-Fri 25:00-26:00 UTC&#39;: no such time of day: 25:00",
                "id=\"startAt-error\">must be an ISO-8601 instant", "value=\"Spring\"",
                "aria-invalid=\"true\" aria-describedby=\"windows-error\"",
                // The summary above the form names each field as its label does, never as the domain or the command line.
                "<li>Start at: must be an ISO-8601 instant", "<li>Send windows: &#39;Mon-Fri 25:00-26:00 UTC&#39;: no such time")
                .doesNotContain("<li>startAt:", "<li>windows:", "--window", "--start-at");
        assertThat(count()).isZero();

        HttpResponse<String> ok = console.post(session, "/console/campaigns/new", Map.of("csrf", csrf, "template", "newsletter",
                "name", "Spring", "from", "news@sender.example", "rate", "2.5"));
        assertThat(ok.statusCode()).isEqualTo(303);
        assertThat(count()).isOne();
        assertThat(console.get(session, ok.headers().firstValue("Location").orElseThrow()).body())
                .contains("is created as a draft", "Spring");
    }

    @Test
    void a_new_campaigns_headers_are_checked_beside_their_field_and_stored_in_their_order() throws Exception {
        String session = console.login(console.token("ops", ApiScope.ADMIN));
        String csrf = console.csrf(session, "/console/campaigns/new?template=newsletter");

        HttpResponse<String> reserved = console.post(session, "/console/campaigns/new", Map.of("csrf", csrf, "template", "newsletter",
                "name", "Tagged", "from", "news@sender.example", "headers", "X-Campaign-Tag: spring-2026\r\nFrom: boss@example.org"));
        assertThat(reserved.statusCode()).isEqualTo(422);
        assertThat(reserved.body()).contains("id=\"headers-error\">From: mailrun writes this header itself; it cannot be added",
                "<li>Headers: From: mailrun writes this header itself", "aria-invalid=\"true\" aria-describedby=\"headers-error\"",
                "X-Campaign-Tag: spring-2026").doesNotContain("<li>headers:", "--header");
        HttpResponse<String> noColon = console.post(session, "/console/campaigns/new", Map.of("csrf", csrf, "template", "newsletter",
                "name", "Tagged", "from", "news@sender.example", "headers", "X-Campaign-Tag spring"));
        assertThat(noColon.statusCode()).isEqualTo(422);
        assertThat(noColon.body()).contains("id=\"headers-error\">&#39;X-Campaign-Tag spring&#39;: must be Name: value")
                .doesNotContain("<li>headers:", "--header");
        assertThat(count()).isZero();

        HttpResponse<String> ok = console.post(session, "/console/campaigns/new", Map.of("csrf", csrf, "template", "newsletter",
                "name", "Tagged", "from", "news@sender.example", "headers", "X-Campaign-Tag: spring-2026\n\nFeedback-ID: a1:news:mailrun\n"));
        assertThat(ok.statusCode()).isEqualTo(303);
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT custom_headers FROM campaign")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("[[\"X-Campaign-Tag\",\"spring-2026\"],[\"Feedback-ID\",\"a1:news:mailrun\"]]");
        }
    }

    @Test
    void the_preview_frame_has_its_own_sandboxing_policy() {
        String session = console.login(console.token("ops", ApiScope.ADMIN));
        HttpResponse<String> frame = console.get(session, "/console/templates/newsletter/preview?email=a%40b.example&name=Ada");
        assertThat(frame.statusCode()).isEqualTo(200);
        assertThat(frame.body()).contains("Hi Ada,");
        String csp = frame.headers().firstValue("Content-Security-Policy").orElseThrow();
        assertThat(csp).startsWith("sandbox;").contains("default-src 'none'", "frame-ancestors 'self'").doesNotContain("script-src");
        assertThat(frame.headers().firstValue("X-Frame-Options")).hasValue("SAMEORIGIN");
        String reader = console.login(console.token("reader", ApiScope.CAMPAIGNS_READ));
        assertThat(console.get(reader, "/console/templates/newsletter/preview").statusCode()).isEqualTo(403);
    }

    @Test
    void a_suppression_is_removed_only_with_a_reason_and_only_with_the_write_scope() throws Exception {
        String session = console.login(console.token("lists", ApiScope.SUPPRESSIONS_READ, ApiScope.SUPPRESSIONS_WRITE));
        String csrf = console.csrf(session, "/console/suppressions");
        assertThat(console.post(session, "/console/suppressions/add", Map.of("csrf", csrf, "address", "gone@list.example"))
                .statusCode()).isEqualTo(303);
        HttpResponse<String> noReason = console.post(session, "/console/suppressions/remove",
                Map.of("csrf", csrf, "address", "gone@list.example", "why", "  "));
        assertThat(noReason.statusCode()).isEqualTo(303);
        assertThat(console.get(session, noReason.headers().firstValue("Location").orElseThrow()).body())
                .contains("Removing needs a reason, kept with your name: it must say why the address may be mailed again.",
                        "Suppressed: manual, by console:lists").doesNotContain("--why", "why:");

        String reader = console.login(console.token("reader", ApiScope.SUPPRESSIONS_READ));
        String readerCsrf = console.csrf(reader, "/console/suppressions");
        assertThat(console.get(reader, "/console/suppressions?address=gone%40list.example").body())
                .contains("Suppressed: manual").doesNotContain("id=\"remove\"", "id=\"add\"");
        assertThat(console.post(reader, "/console/suppressions/remove", Map.of("csrf", readerCsrf, "address", "gone@list.example",
                "why", "forged")).statusCode()).isEqualTo(403);

        assertThat(console.post(session, "/console/suppressions/remove", Map.of("csrf", csrf, "address", "gone@list.example",
                "why", "asked again")).statusCode()).isEqualTo(303);
        assertThat(console.get(session, "/console/suppressions?address=gone%40list.example").body())
                .contains("Not suppressed.", "by console:lists: asked again");
        assertThat(audit()).containsExactly("lists suppression.add /console/suppressions/add 200",
                "lists suppression.remove /console/suppressions/remove 409",
                "reader suppression.remove /console/suppressions/remove 403",
                "lists suppression.remove /console/suppressions/remove 200");
    }

    @Test
    void a_change_with_a_valid_token_must_still_name_the_consoles_origin() throws Exception {
        String session = console.login(console.token("ops", ApiScope.ADMIN));
        long id = console.campaign("Origin");
        String path = "/console/campaigns/" + id + "/cancel";
        String csrf = console.csrf(session, "/console/campaigns/" + id);
        Map<String, String> form = Map.of("confirm", "yes", "csrf", csrf);

        assertThat(console.postAsIs(session, path, form).statusCode()).as("no Origin nor Referer").isEqualTo(403);
        assertThat(console.postAsIs(session, path, form, "Origin", "null").statusCode()).as("Origin: null").isEqualTo(403);
        assertThat(console.postAsIs(session, path, form, "Referer", "http://evil.example/console/campaigns").statusCode())
                .as("a foreign Referer alone").isEqualTo(403);
        assertThat(console.postAsIs(session, path, form, "Sec-Fetch-Site", "cross-site").statusCode())
                .as("a cross-site fetch").isEqualTo(403);
        assertThat(status(id)).isEqualTo("draft");

        assertThat(console.postAsIs(session, path, form, "Referer", console.base() + "/console/campaigns/" + id).statusCode())
                .as("the console's own Referer").isEqualTo(303);
        assertThat(status(id)).isEqualTo("cancelled");
        long other = console.campaign("Fetch metadata");
        String otherCsrf = console.csrf(session, "/console/campaigns/" + other);
        assertThat(console.postAsIs(session, "/console/campaigns/" + other + "/cancel", Map.of("confirm", "yes", "csrf", otherCsrf),
                "Origin", "null", "Sec-Fetch-Site", "same-origin").statusCode()).as("Sec-Fetch-Site: same-origin").isEqualTo(303);
    }

    @Test
    void an_upload_needs_the_csrf_token_too_and_imports_with_it() throws Exception {
        String session = console.login(console.token("ops", ApiScope.ADMIN));
        long id = console.campaign("Upload");
        String csv = "email,name\nreader1@list.example,One\nnot-an-address,Two\n";
        String path = "/console/campaigns/" + id + "/import";
        HttpResponse<String> forged = console.upload(session, path, Map.of(), csv);
        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(recipients(id)).isZero();

        HttpResponse<String> ok = console.upload(session, path, Map.of("csrf", console.csrf(session, path)), csv);
        assertThat(ok.statusCode()).isEqualTo(303);
        assertThat(recipients(id)).isOne();
        assertThat(console.get(session, path).body()).contains("id=\"report-imported\">1<", "id=\"report-rejected\">1<",
                "not-an-address");
    }

    @Test
    void the_import_report_adds_up_lists_rejects_by_line_and_states_the_size_limit_in_units() throws Exception {
        String session = console.login(console.token("ops", ApiScope.ADMIN));
        long id = console.campaign("Report");
        String path = "/console/campaigns/" + id + "/import";
        assertThat(console.upload(session, path, Map.of("csrf", console.csrf(session, path)), "email\nfirst@list.example\n")
                .statusCode()).isEqualTo(303);
        // Line 2 is found already in the campaign by the writer, after the reader rejected lines 3 and 5.
        String csv = "email\nfirst@list.example\nnot-an-address\nnew@list.example\nalso-not\nnew@list.example\n";
        assertThat(console.upload(session, path, Map.of("csrf", console.csrf(session, path)), csv).statusCode()).isEqualTo(303);

        String page = console.get(session, path).body();
        assertThat(page).contains("id=\"report-rows\">5<", "id=\"report-imported\">1<", "id=\"report-duplicates\">2<",
                "id=\"report-rejected\">2<", "at most 1 GiB");
        String rejects = page.substring(page.indexOf("id=\"rejects\""));
        assertThat(rejects.indexOf("<td>2</td>")).isPositive().isLessThan(rejects.indexOf("<td>3</td>"));
        assertThat(rejects.indexOf("<td>3</td>")).isLessThan(rejects.indexOf("<td>5</td>"));
        assertThat(rejects.indexOf("<td>5</td>")).isLessThan(rejects.indexOf("<td>6</td>"));
    }

    @Test
    void the_campaign_page_shows_the_complaint_rate_against_its_threshold_and_the_variants() throws Exception {
        String session = console.login(console.token("viewer", ApiScope.CAMPAIGNS_READ));
        long plain = console.campaign("Plain");
        assertThat(console.get(session, "/console/campaigns/" + plain).body())
                .contains("id=\"complaints\" class=\"\">0 (0.00%; pauses above 0.30%)").doesNotContain("id=\"variants\"");
        long id = console.campaign("Variants", ",\"variants\":[\"A:subject=Spring sale\",\"B:subject=20% off\"],"
                + "\"test_share\":20,\"decide_after\":\"4h\",\"pick_by\":\"manual\"");
        java.nio.file.Path csv = java.nio.file.Files.createTempFile("console-ab", ".csv");
        try {
            java.nio.file.Files.writeString(csv, "email,name\nr1@list.example,One\nr2@list.example,Two\n");
            console.importThroughApi(id, csv);
        } finally {
            java.nio.file.Files.delete(csv);
        }
        // A complaint (an ARF report) about one of them: complaints over sends, as the complaint breaker reads them.
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("""
                INSERT INTO bounce_event (recipient_id, kind, campaign_id, address, status, created_at)
                SELECT id, 'complaint', campaign_id, email, '', '2026-11-26 10:00:00' FROM recipient WHERE campaign_id = ? AND email = ?""")) {
            ps.setLong(1, id);
            ps.setString(2, "r1@list.example");
            assertThat(ps.executeUpdate()).isOne();
        }
        String page = console.get(session, "/console/campaigns/" + id).body();
        assertThat(page).contains("id=\"complaints\" class=\"over\">1 (100.00%; pauses above 0.30%)", "<table id=\"variants\">",
                "test share 20%", "winner: <span id=\"ab-winner\">none yet</span>", "<tr><td>A</td>", "<tr><td>B</td>",
                "unsubscribes and complaints per delivered (95%)").doesNotContain("id=\"engagement\"");
        assertThat(page).contains("<td>test share</td>").doesNotContain("<td>rest</td>");
        // Once B is picked and given to the one outside the test share, its figures are a row of their own.
        try (Connection c = db.dataSource().getConnection(); var st = c.createStatement()) {
            st.executeUpdate("UPDATE recipient SET variant = 0, ab_test_share = 1 WHERE campaign_id = " + id + " AND email = 'r1@list.example'");
            st.executeUpdate("UPDATE recipient SET variant = 1 WHERE campaign_id = " + id + " AND email = 'r2@list.example'");
            st.executeUpdate("UPDATE campaign_ab SET winner = 1, winner_reason = 'picked', decided_at = '2026-11-26 11:00:00',"
                    + " rest_given_at = '2026-11-26 11:00:00' WHERE campaign_id = " + id);
        }
        assertThat(console.get(session, "/console/campaigns/" + id).body())
                .contains("<tr><td>A</td><td>test share</td><td>1</td>", "<tr><td>B (winner)</td><td>test share</td><td>0</td>",
                        "<tr><td>B (winner)</td><td>rest</td><td>1</td>");
        // The same figures, from the same report, in the API's (and campaign status --json's) report and on the status page.
        HttpResponse<String> api = console.get(null, "/api/v1/campaigns/" + id, "Authorization", "Bearer " + ConsoleClient.ADMIN_TOKEN);
        assertThat(api.statusCode()).isEqualTo(200);
        var complaints = new com.fasterxml.jackson.databind.ObjectMapper().readTree(api.body()).path("report").path("complaint_rate");
        assertThat(complaints.toString()).isEqualTo("{\"complaints\":1,\"delivered\":1,\"rate\":1.0,\"pause_above\":0.003,\"over\":true}");
        assertThat(console.get(session, "/status").body())
                .contains("<dd id=\"complaints-" + id + "\" class=\"over\">1 (100.0% of 1 delivered; pauses above 0.3%)</dd>",
                        "<dd id=\"complaints-" + plain + "\">0 (0.0% of 0 delivered; pauses above 0.3%)</dd>");
    }

    @Test
    void a_tracked_campaigns_page_shows_its_tracking_figures() throws Exception {
        Map<String, String> env = WorkerEnv.of(db, 2525);
        env.put("MAILRUN_TRACKING_ENABLED", "true");
        env.put("MAILRUN_TRACKING_BASE_URL", "https://t.sender.example");
        try (ConsoleClient tracked = new ConsoleClient(env, clock)) {
            String session = tracked.login(tracked.token("viewer", ApiScope.CAMPAIGNS_READ));
            long id = tracked.campaign("Tracked", ",\"track\":\"opens,clicks\"");
            assertThat(tracked.get(session, "/console/campaigns/" + id).body()).contains("Tracking (opens,clicks)",
                    "<table id=\"engagement\">", "<tr><td>opens</td><td>0</td>", "<tr><td>clicks</td><td>0</td>",
                    "machine share of opens: -");
        }
    }

    private long recipients(long id) throws Exception {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private long count() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM campaign")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private String status(long id) throws Exception {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT status FROM campaign WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private List<String> audit() throws Exception {
        return ConsoleClient.audit(db.dataSource());
    }
}
