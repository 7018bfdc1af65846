package dev.mailrun.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.audience.signup.SignupGuard;
import dev.mailrun.campaign.audience.signup.Signups;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.audience.PublicListTable;
import dev.mailrun.campaign.tracking.MachineList;
import dev.mailrun.campaign.tracking.Tracker;
import dev.mailrun.campaign.tracking.TrackingListener;
import dev.mailrun.campaign.tracking.TrackingSettings;
import dev.mailrun.campaign.unsubscribe.PreferenceTokens;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.SignupTokens;
import dev.mailrun.campaign.unsubscribe.TrackingTokens;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.http.endpoint.PreferenceCentre;
import dev.mailrun.http.endpoint.PublicRoutes;
import dev.mailrun.http.server.HttpLimits;
import dev.mailrun.http.server.HttpServer;
import dev.mailrun.http.server.Listener;
import dev.mailrun.http.server.PageLook;
import dev.mailrun.http.server.PublicPage;
import dev.mailrun.http.server.RawHttp;
import dev.mailrun.http.server.TrustedProxies;
import dev.mailrun.mail.message.Mailbox;
import dev.mailrun.testing.PersonEverywhere;
import dev.mailrun.testing.PublicWiring;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.lang.reflect.Proxy;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.AbstractStringAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import javax.sql.DataSource;

/**
 * Every kind of page a person sees on the public listener — the sign-up form and its answer, the
 * confirmation page, the preference centre, one-click unsubscribe's question and answer, their error
 * pages — comes out of the one shell: the operator's logo and footer, the shell's policy; and the
 * preference centre and unsubscribe speak German to a German reader or for a German list. So do the
 * listener's own error answers: an unknown path, a wrong method, the tracking endpoints' 503 while the
 * database is down, and what Jetty refuses before any route (a URI too long, a malformed request line).
 * Real sockets, the real database, a real SMTP server for the confirmation message.
 */
class PublicPagesTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();
    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final String LOGO = "https://cdn.shop.example/brand/logo.png";
    private static final Pattern FORM_TOKEN = Pattern.compile("name=\"form_token\" value=\"([^\"]+)\"");
    private static final Pattern CONFIRM_LINK = Pattern.compile("http://127\\.0\\.0\\.1:\\d+(/confirm/[A-Za-z0-9_-]+)");
    private final SigningKey key = SigningKey.of("0123456789abcdef0123456789abcdef-pages");
    private final SettableClock clock = SettableClock.at("2026-12-01T10:00:00Z");
    private final PreferenceTokens preferenceTokens = new PreferenceTokens(key, clock);
    private final UnsubscribeTokens unsubscribeTokens = new UnsubscribeTokens(key);
    private final TrackingTokens trackingTokens = new TrackingTokens(key);
    private final PublicPage shell = new PublicPage(new PageLook(PageLook.logoOf(LOGO), "#0f766e", "#1f2937",
            Optional.of("Shop & Co, 1 Main Street")));
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private HttpServer server;
    private String base;
    private PersonEverywhere person;

    @BeforeEach
    void start() throws Exception {
        greenMail.purgeEmailFromAllMailboxes();
        person = PersonEverywhere.make(db.dataSource(), clock);
        server = HttpServer.start(List.of(Listener.open("public", "127.0.0.1", 0, List.of())), Duration.ofSeconds(2), HttpLimits.DEFAULTS);
        int port = server.port();
        server.close();
        // The confirmation links are made on the server's own address: start it on a port known beforehand.
        base = "http://127.0.0.1:" + port;
        var ds = db.dataSource();
        int smtpPort = greenMail.getSmtp().getPort();
        SignupTokens signupTokens = PublicWiring.signupTokens(key, clock);
        Signups signups = PublicWiring.signups(ds, clock, signupTokens, smtpPort, new Mailbox("news@shop.example", "Shop News"),
                URI.create(base), "v1");
        SignupGuard guard = PublicWiring.guard(signupTokens, Optional.empty(), clock);
        PreferenceCentre centre = PreferenceCentres.of(ds, clock, preferenceTokens, smtpPort, URI.create("https://links.shop.example"));
        Unsubscriber unsubscriber = new Unsubscriber(ds, new SuppressionTable(), clock);
        // The tracking endpoints read a database that is down: every genuine token gets 503.
        DataSource down = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    throw new SQLException("database down");
                });
        Tracker tracker = new Tracker(down, clock, new TrackingSettings(URI.create("https://t.example"), true, Duration.ofDays(1),
                Duration.ofSeconds(10), Set.of(), 100), MachineList.shipped(), TrackingListener.NONE);
        server = HttpServer.start(List.of(Listener.open("public", "127.0.0.1", port, List.of(
                        PublicRoutes.signup(signups, guard, shell, TrustedProxies.NONE), PublicRoutes.confirm(signups, shell),
                        PublicRoutes.preferences(centre, shell), PublicRoutes.unsubscribe(unsubscribeTokens, unsubscriber, shell, "en"),
                        PublicRoutes.trackedClicks(trackingTokens, tracker, TrustedProxies.NONE, shell),
                        PublicRoutes.trackedOpens(trackingTokens, tracker, TrustedProxies.NONE, shell))).withPages(shell)),
                Duration.ofSeconds(2), HttpLimits.DEFAULTS);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void every_kind_of_public_page_carries_the_operators_logo_and_footer_under_the_shells_policy() throws Exception {
        assertThat(shell.contentSecurityPolicy()).startsWith("default-src 'none'; style-src 'sha256-")
                .contains("img-src https://cdn.shop.example;").doesNotContain("unsafe-inline");

        HttpResponse<String> form = get("/subscribe/offers", "en");
        inShell(form, 200).contains("name=\"email\"", "name=\"form_token\"");
        String token = token(form.body());
        clock.advance(Duration.ofSeconds(5));
        inShell(post("/subscribe/offers", "form_token=" + enc(token) + "&email=new.reader%40example.com&name=&list="
                + listId("offers")), 200).contains("Almost done");
        inShell(get(confirmPath(), "en"), 200).contains("Confirm your subscription", "<form method=\"post\"");
        inShell(get("/confirm/forged-token", "en"), 400).contains("Invalid link");
        inShell(get("/subscribe/no-such-list", "en"), 404);

        HttpResponse<String> centre = get(preferenceLink(), "en");
        inShell(centre, 200).contains("Your email preferences", "name=\"action\" value=\"save\"",
                "class=\"choice\"", "<button type=\"submit\" name=\"action\" value=\"erase\" class=\"danger\">");
        Matcher style = Pattern.compile("<style>(.*?)</style>", Pattern.DOTALL).matcher(centre.body());
        assertThat(style.find()).isTrue();
        assertThat(style.group(1)).contains(".choice{", ".note{", "button.danger{");
        String hash = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
                .digest(style.group(1).getBytes(StandardCharsets.UTF_8)));
        assertThat(shell.contentSecurityPolicy()).as("the one style sheet, allowed by its hash").contains("style-src 'sha256-" + hash + "'");
        inShell(post(preferenceLink(), "action=leave-all"), 400).contains("Page expired");
        inShell(get("/p/forged-token", "en"), 400).contains("Invalid link");

        String unsubscribe = "/u/" + unsubscribeTokens.token(person.campaign, 1, PersonEverywhere.EMAIL);
        inShell(get(unsubscribe, "en"), 200).contains("Stop mail to <strong>" + PersonEverywhere.EMAIL + "</strong> from the lists news, staff?",
                "<input type=\"hidden\" name=\"List-Unsubscribe\" value=\"One-Click\">");
        inShell(post(unsubscribe, "List-Unsubscribe=One-Click"), 200).contains("You will no longer receive mail from the lists news, staff");
        inShell(get("/u/forged-token", "en"), 400).contains("Invalid link");
    }

    @Test
    void the_preference_centre_and_unsubscribe_speak_german_to_a_reader_whose_browser_asks_for_it() throws Exception {
        inShell(get(preferenceLink(), "de-DE,de;q=0.9,en;q=0.5"), 200).contains("<html lang=\"de\">", "Ihre E-Mail-Einstellungen", "Auswahl speichern", "Meine Daten herunterladen");
        inShell(get("/p/forged-token", "de"), 400).contains("Ungültiger Link");

        // A campaign sent to no list: no list speaks for the reader.
        String unsubscribe = "/u/" + unsubscribeTokens.token(987654, 1, "leser@example.org");
        inShell(get(unsubscribe, "de"), 200).contains("<html lang=\"de\">", "Keine E-Mails mehr an <strong>leser@example.org</strong> senden?",
                ">Abmelden</button>");
        inShell(postAs(unsubscribe, "List-Unsubscribe=One-Click", "de"), 200).contains("<strong>leser@example.org</strong> erhält keine E-Mails mehr von uns.");
        inShell(get("/u/forged-token", "de"), 400).contains("Ungültiger Link");
        assertThat(get(unsubscribe, "en").body()).contains("<html lang=\"en\">", "Stop all mail to");
    }

    @Test
    void a_campaign_to_lists_unsubscribes_in_the_lists_language_whatever_the_browser_asks_for() throws Exception {
        String unsubscribe = "/u/" + unsubscribeTokens.token(person.campaign, 1, PersonEverywhere.EMAIL);
        assertThat(get(unsubscribe, "de").body()).as("no list has its own language: the configured one")
                .contains("<html lang=\"en\">", "Stop mail to");

        try (Connection c = db.dataSource().getConnection()) {
            new PublicListTable().setLanguage(c, "news", Optional.of("de"));
        }

        inShell(get(unsubscribe, "en"), 200).contains("<html lang=\"de\">",
                "Keine E-Mails der Listen news, staff mehr an <strong>" + PersonEverywhere.EMAIL + "</strong> senden?");
        inShell(post(unsubscribe, "List-Unsubscribe=One-Click"), 200)
                .contains("Sie erhalten an <strong>" + PersonEverywhere.EMAIL + "</strong> keine E-Mails der Listen news, staff mehr.");
    }

    @Test
    void the_listeners_own_error_answers_are_in_the_shell_in_the_readers_language() throws Exception {
        inShell(get("/no-such-page", "en"), 404).contains("<html lang=\"en\">", "Page not found", "Check the link you followed");
        inShell(get("/no-such-page", "de-DE,de;q=0.9"), 404).contains("<html lang=\"de\">", "Seite nicht gefunden",
                "Prüfen Sie den Link");
        inShell(get("/u/abc/def", "de"), 404).contains("Seite nicht gefunden");
        inShell(get("/p/", "en"), 404).contains("Page not found");

        // The tracking endpoints: an unknown token, a wrong method, the database down.
        inShell(get("/c/forged-token", "en"), 404).contains("Page not found");
        HttpResponse<String> delete = http.send(HttpRequest.newBuilder(URI.create(base + "/c/forged-token"))
                .header("Accept-Language", "de").DELETE().build(), HttpResponse.BodyHandlers.ofString());
        inShell(delete, 405).contains("Methode nicht erlaubt");
        assertThat(delete.headers().firstValue("Allow")).hasValue("GET, HEAD");
        String click = "/c/" + trackingTokens.clickToken(person.campaign, 1, 0);
        inShell(get(click, "en"), 503).contains("Please try again", "We cannot answer just now.");
        inShell(get(click, "de"), 503).contains("Bitte versuchen Sie es erneut");
        HttpResponse<String> head = http.send(HttpRequest.newBuilder(URI.create(base + click)).method("HEAD",
                HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(head.statusCode()).isEqualTo(503);
        assertThat(head.body()).isEmpty();
    }

    @Test
    void what_jetty_refuses_before_any_route_is_in_the_shell_too_and_echoes_nothing() throws Exception {
        String echo = "zz-echo-me-zz";
        String tooLong = RawHttp.exchange(server.port(), "GET /" + echo + "x".repeat(HttpLimits.DEFAULTS.maxHeaderBytes())
                + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
        rawInShell(tooLong, 414).contains("Address too long", "copied whole").doesNotContain(echo);

        String malformed = RawHttp.exchange(server.port(), "GET /u/" + echo + " HTTP/1.1\r\nHost: localhost\r\n"
                + "no colon " + echo + "\r\n\r\n");
        rawInShell(malformed, 400).contains("Bad request").doesNotContain(echo);
        rawInShell(RawHttp.exchange(server.port(), "GARBAGE " + echo + "\r\n\r\n"), 505)
                .contains("HTTP version not supported").doesNotContain(echo);

        String ambiguous = RawHttp.exchange(server.port(), "GET /%2e%2e/u/" + echo + " HTTP/1.1\r\nHost: localhost\r\n"
                + "Accept-Language: de\r\n\r\n");
        // Jetty refuses it from the request line and hands the error page a request without headers: English.
        rawInShell(ambiguous, 400).contains("<html lang=\"en\">", "Bad request").doesNotContain(echo);
    }

    /** A raw answer: its status, the shell's headers and policy, the operator's look; closed after it. */
    private AbstractStringAssert<?> rawInShell(String response, int status) {
        assertThat(RawHttp.status(response)).as(response).isEqualTo(status);
        int end = response.indexOf("\r\n\r\n");
        String headers = response.substring(0, end);
        assertThat(headers).containsIgnoringCase("Content-Type: text/html; charset=utf-8")
                .contains("Content-Security-Policy: " + shell.contentSecurityPolicy(), "X-Content-Type-Options: nosniff")
                .containsIgnoringCase("Connection: close");
        // RawHttp reads bytes as ISO-8859-1; the page is UTF-8.
        return assertThat(new String(response.substring(end + 4).getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8))
                .contains("<img class=\"logo\" src=\"" + LOGO + "\" alt=\"\">", "<footer>Shop &amp; Co, 1 Main Street</footer>",
                        "color:#1f2937")
                .doesNotContain("<script", "style=\"").doesNotContainIgnoringCase("jetty");
    }

    /** The page's status, the shell's policy, the operator's logo and footer; its body to check further. */
    private AbstractStringAssert<?> inShell(HttpResponse<String> page, int status) {
        assertThat(page.statusCode()).as(page.uri().getPath()).isEqualTo(status);
        assertThat(page.headers().firstValue("Content-Security-Policy")).as(page.uri().getPath()).hasValue(shell.contentSecurityPolicy());
        return assertThat(page.body()).as(page.uri().getPath())
                .contains("<img class=\"logo\" src=\"" + LOGO + "\" alt=\"\">", "<footer>Shop &amp; Co, 1 Main Street</footer>",
                        "name=\"viewport\"")
                .doesNotContain("<script", "style=\"");
    }

    private String preferenceLink() {
        return "/p/" + preferenceTokens.token(PreferenceTokens.Kind.LINK, person.campaign, PersonEverywhere.EMAIL);
    }

    private String confirmPath() {
        assertThat(greenMail.waitForIncomingEmail(5000, 1)).isTrue();
        Matcher m = CONFIRM_LINK.matcher(GreenMailUtil.getBody(greenMail.getReceivedMessages()[0]).replace("=\r\n", ""));
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    private static String token(String html) {
        Matcher m = FORM_TOKEN.matcher(html);
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static long listId(String name) throws Exception {
        return PersonEverywhere.one(db.dataSource(), "SELECT id FROM subscriber_list WHERE name = '" + name + "'");
    }

    private HttpResponse<String> get(String path, String language) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Accept-Language", language).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String form) throws Exception {
        return postAs(path, form, "en");
    }

    private HttpResponse<String> postAs(String path, String form, String language) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept-Language", language).POST(HttpRequest.BodyPublishers.ofString(form)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
