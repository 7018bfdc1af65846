package dev.mailrun.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.app.cli.CliHarness;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The console behind a reverse proxy, over real HTTP from this machine: the proxy is trusted when
 * console.trusted-proxies holds 127.0.0.1 and not when it holds only 10.0.0.0/8. From a trusted peer
 * the user header logs in with the proxy token's scopes and the audit names the user, and
 * X-Forwarded-Proto: https makes the cookies Secure; from any other peer both headers are ignored.
 */
class ConsoleProxyHttpTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final String TRUSTED = "127.0.0.1/32";
    private static final String ELSEWHERE = "10.0.0.0/8";
    private static final String USER = "X-Forwarded-User";

    private final SettableClock clock = SettableClock.at("2026-11-26T10:00:00Z");

    @BeforeEach
    void clean() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String table : List.of("api_token", "api_audit", "api_idempotency", "campaign", "task")) {
                s.execute("DELETE FROM " + table);
            }
        }
    }

    private ConsoleClient console(String trusted, boolean authHeader) throws Exception {
        Map<String, String> env = WorkerEnv.of(db, 2525);
        env.put("MAILRUN_CONSOLE_TRUSTED_PROXIES", trusted);
        if (authHeader) {
            env.put("MAILRUN_CONSOLE_AUTH_HEADER", USER);
            env.put("MAILRUN_CONSOLE_PROXY_TOKEN", "console-proxy");
        }
        return new ConsoleClient(env, clock);
    }

    @Test
    void the_header_from_a_trusted_proxy_logs_in_with_the_tokens_scopes_and_the_audit_names_the_user() throws Exception {
        try (ConsoleClient console = console(TRUSTED, true)) {
            console.token("console-proxy", ApiScope.CAMPAIGNS_READ, ApiScope.CAMPAIGNS_WRITE);
            long id = console.campaign("Proxied");
            HttpResponse<String> first = console.get(null, "/console/campaigns", USER, "alice@corp.example");
            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(first.body()).contains("Proxied");
            String cookie = first.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("mailrun_console="))
                    .findFirst().orElseThrow();
            assertThat(cookie).contains("HttpOnly", "SameSite=Strict").doesNotContain("Secure");
            String session = ConsoleClient.cookieValue(cookie);

            HttpResponse<String> again = console.get(session, "/console/campaigns", USER, "alice@corp.example");
            assertThat(again.statusCode()).isEqualTo(200);
            assertThat(again.headers().allValues("Set-Cookie")).as("the session goes on").isEmpty();

            String path = "/console/campaigns/" + id;
            assertThat(console.post(session, path + "/cancel", Map.of("confirm", "yes")).statusCode()).as("CSRF as ever")
                    .isEqualTo(403);
            String csrf = console.csrf(session, path);
            assertThat(console.post(session, path + "/cancel", Map.of("confirm", "yes", "csrf", csrf), USER, "alice@corp.example")
                    .statusCode()).isEqualTo(303);
            assertThat(console.get(session, path).body()).contains("is cancelled");
            assertThat(console.get(session, "/console/audit").statusCode()).as("the proxy token has no admin scope").isEqualTo(403);
            assertThat(ConsoleClient.audit(db.dataSource())).containsExactly(
                    "proxy:alice@corp.example campaign.cancel /console/campaigns/" + id + "/cancel 200");
        }
    }

    @Test
    void another_user_named_by_the_proxy_ends_the_session_of_the_one_before() throws Exception {
        try (ConsoleClient console = console(TRUSTED, true)) {
            console.token("console-proxy", ApiScope.CAMPAIGNS_READ);
            String alice = ConsoleClient.cookieValue(console.get(null, "/console/campaigns", USER, "alice")
                    .headers().firstValue("Set-Cookie").orElseThrow());
            HttpResponse<String> bob = console.get(alice, "/console/campaigns", USER, "bob");
            assertThat(bob.statusCode()).isEqualTo(200);
            String bobs = ConsoleClient.cookieValue(bob.headers().firstValue("Set-Cookie").orElseThrow());
            assertThat(bobs).isNotEqualTo(alice);
            assertThat(console.get(alice, "/console/campaigns").statusCode()).as("alice's session ended").isEqualTo(303);
            assertThat(console.get(bobs, "/console/campaigns").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void the_header_from_a_peer_outside_the_trusted_proxies_is_ignored() throws Exception {
        try (ConsoleClient console = console(ELSEWHERE, true)) {
            console.token("console-proxy", ApiScope.ADMIN);
            HttpResponse<String> page = console.get(null, "/console/campaigns", USER, "mallory");
            assertThat(page.statusCode()).isEqualTo(303);
            assertThat(page.headers().firstValue("Location")).hasValue("/console/login");
            assertThat(page.headers().allValues("Set-Cookie")).isEmpty();
            HttpResponse<String> login = console.get(null, "/console/login", USER, "mallory");
            assertThat(login.statusCode()).isEqualTo(200);
            assertThat(login.body()).contains("name=\"token\"");
            assertThat(login.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("mailrun_console="));
        }
    }

    @Test
    void a_user_name_mailrun_does_not_take_or_a_revoked_proxy_token_refuses_with_a_page_saying_so() throws Exception {
        try (ConsoleClient console = console(TRUSTED, true)) {
            HttpResponse<String> missing = console.get(null, "/console/campaigns", USER, "alice");
            assertThat(missing.statusCode()).isEqualTo(403);
            assertThat(missing.body()).contains("console.proxy-token (console-proxy) names no live API token");
            assertThat(missing.headers().allValues("Set-Cookie")).isEmpty();

            console.token("console-proxy", ApiScope.ADMIN);
            console.services.apiTokens().revoke("console-proxy");
            assertThat(console.get(null, "/console/campaigns", USER, "alice").statusCode()).as("revoked").isEqualTo(403);

            HttpResponse<String> longName = console.get(null, "/console/campaigns", USER, "a".repeat(129));
            assertThat(longName.statusCode()).isEqualTo(400);
            assertThat(longName.body()).contains("the user name in X-Forwarded-User is over 128 characters");
            HttpResponse<String> tab = console.get(null, "/console/campaigns", USER, "alice\tadmin");
            assertThat(tab.statusCode()).isEqualTo(400);
            assertThat(tab.body()).contains("the user name in X-Forwarded-User holds characters other than printable ASCII");
            HttpResponse<String> twice = console.get(null, "/console/campaigns", USER, "alice", USER, "bob");
            assertThat(twice.statusCode()).isEqualTo(400);
            assertThat(twice.body()).contains("the proxy sent X-Forwarded-User 2 times");
            assertThat(twice.headers().allValues("Set-Cookie")).isEmpty();
        }
    }

    @Test
    void x_forwarded_proto_https_from_a_trusted_proxy_makes_the_cookies_secure() throws Exception {
        try (ConsoleClient console = console(TRUSTED, false)) {
            HttpResponse<String> form = console.get(null, "/console/login", "X-Forwarded-Proto", "https");
            assertThat(form.headers().firstValue("Set-Cookie").orElseThrow()).startsWith("mailrun_login=").endsWith("; Secure");
            String token = console.token("ops", ApiScope.ADMIN);
            HttpResponse<String> login = loginForm(console, token, "https");
            assertThat(login.statusCode()).isEqualTo(303);
            String cookie = login.headers().firstValue("Set-Cookie").orElseThrow();
            assertThat(cookie).startsWith("mailrun_console=").contains("HttpOnly", "SameSite=Strict").endsWith("; Secure");

            String session = ConsoleClient.cookieValue(cookie);
            long id = console.campaign("Behind TLS");
            String path = "/console/campaigns/" + id;
            String csrf = console.csrf(session, path);
            String origin = console.base().replace("http:", "https:");
            assertThat(console.post(session, path + "/cancel", Map.of("confirm", "yes", "csrf", csrf), "Origin", origin).statusCode())
                    .as("an https origin without the proxy's word is foreign").isEqualTo(403);
            assertThat(console.post(session, path + "/cancel", Map.of("confirm", "yes", "csrf", csrf), "X-Forwarded-Proto", "https",
                    "Origin", origin).statusCode()).as("the browser's origin is https behind the proxy").isEqualTo(303);
            assertThat(console.get(session, path).body()).contains("is cancelled");
            assertThat(console.post(session, "/console/logout", Map.of("csrf", csrf), "X-Forwarded-Proto", "https", "Origin", origin)
                    .headers().firstValue("Set-Cookie").orElseThrow()).startsWith("mailrun_console=;").endsWith("; Secure");
            assertThat(loginForm(console, token, "https, http").headers().firstValue("Set-Cookie").orElseThrow())
                    .as("a list of schemes is not believed").doesNotContain("Secure");
        }
    }

    @Test
    void x_forwarded_proto_from_a_peer_outside_the_trusted_proxies_is_ignored() throws Exception {
        try (ConsoleClient console = console(ELSEWHERE, false)) {
            HttpResponse<String> form = console.get(null, "/console/login", "X-Forwarded-Proto", "https");
            assertThat(form.headers().firstValue("Set-Cookie").orElseThrow()).startsWith("mailrun_login=").doesNotContain("Secure");
            HttpResponse<String> login = loginForm(console, console.token("ops", ApiScope.ADMIN), "https");
            assertThat(login.statusCode()).isEqualTo(303);
            assertThat(login.headers().firstValue("Set-Cookie").orElseThrow()).startsWith("mailrun_console=")
                    .contains("HttpOnly").doesNotContain("Secure");
        }
    }

    @Test
    void an_auth_header_without_trusted_proxies_or_a_proxy_token_stops_the_start_with_one_line() {
        Map<String, String> env = WorkerEnv.of(db, 2525);
        env.put("MAILRUN_CONSOLE_AUTH_HEADER", USER);
        env.put("MAILRUN_CONSOLE_PROXY_TOKEN", "console-proxy");
        CliHarness.Result r = new CliHarness(env, clock).run("campaign", "list");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().lines()).containsExactly("mailrun: configuration key console.trusted-proxies: must name the proxies "
                + "(CIDR) when console.auth-header is set: the header is believed only from them");

        env.put("MAILRUN_CONSOLE_TRUSTED_PROXIES", TRUSTED);
        env.remove("MAILRUN_CONSOLE_PROXY_TOKEN");
        r = new CliHarness(env, clock).run("campaign", "list");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().lines()).singleElement().asString().startsWith("mailrun: configuration key console.proxy-token: ");
    }

    /** The login form posted as a browser behind the proxy does: every request with {@code X-Forwarded-Proto}. */
    private static HttpResponse<String> loginForm(ConsoleClient console, String token, String proto) {
        HttpResponse<String> form = console.get(null, "/console/login", "X-Forwarded-Proto", proto);
        String cookie = ConsoleClient.cookieValue(form.headers().firstValue("Set-Cookie").orElseThrow());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("name=\"login\" value=\"([^\"]+)\"").matcher(form.body());
        assertThat(m.find()).as("a form token on the login page").isTrue();
        return console.post(null, "/console/login", Map.of("token", token, "login", m.group(1)),
                "Cookie", "mailrun_login=" + cookie, "X-Forwarded-Proto", proto);
    }
}
