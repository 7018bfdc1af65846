package dev.mailrun.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.unsubscribe.PreferenceTokens;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.http.endpoint.PreferenceCentre;
import dev.mailrun.http.endpoint.PublicRoutes;
import dev.mailrun.http.server.HttpLimits;
import dev.mailrun.http.server.HttpServer;
import dev.mailrun.http.server.Listener;
import dev.mailrun.http.server.PageLook;
import dev.mailrun.http.server.PublicPage;
import dev.mailrun.testing.PersonEverywhere;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The preference centre over real sockets, on the real database, its erasure confirmation mailed through
 * the real relay path to GreenMail: the lists changed, every list left, the data downloaded, the erasure
 * asked for and confirmed by the mailed link; forged, altered and expired tokens change nothing.
 */
class PreferenceCentreTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    /** The public URL the mailed links are made on (a proxy would forward it to the listener). */
    private static final String PUBLIC_BASE = "https://links.sender.example";
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([A-Za-z0-9_-]+)\"");
    private final SigningKey key = SigningKey.of("0123456789abcdef0123456789abcdef-test");
    private final SettableClock clock = SettableClock.at("2026-12-01T10:00:00Z");
    private final PreferenceTokens tokens = new PreferenceTokens(key, clock);
    private final PublicPage shell = new PublicPage(PageLook.DEFAULTS);
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private HttpServer server;
    private String base;
    private PersonEverywhere person;

    @BeforeEach
    void start() throws Exception {
        greenMail.purgeEmailFromAllMailboxes();
        person = PersonEverywhere.make(db.dataSource(), clock);
        PreferenceCentre centre = PreferenceCentres.of(db.dataSource(), clock, tokens, greenMail.getSmtp().getPort(),
                URI.create(PUBLIC_BASE));
        server = HttpServer.start(List.of(Listener.open("public", "127.0.0.1", 0, List.of(PublicRoutes.preferences(centre, shell)))),
                Duration.ofSeconds(2), HttpLimits.DEFAULTS);
        base = "http://127.0.0.1:" + server.port();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void the_page_shows_the_public_lists_and_the_private_one_held_under_a_strict_policy_and_changes_nothing() throws Exception {
        HttpResponse<String> page = get(link(), "en");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue(shell.contentSecurityPolicy());
        assertThat(shell.contentSecurityPolicy()).startsWith("default-src 'none'; style-src 'sha256-").contains("form-action 'self'",
                "base-uri 'none'", "frame-ancestors 'none'").doesNotContain("unsafe-inline");
        assertThat(page.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
        assertThat(page.body()).contains("<html lang=\"en\">", "name=\"viewport\"", "Weekly news", "<label for=\"list-")
                .contains(PersonEverywhere.EMAIL).doesNotContain("<script");
        assertThat(checkboxes(page.body())).containsExactly("news checked", "offers", "staff checked");
        assertThat(subscriptions()).containsExactly("news confirmed", "staff confirmed");
        assertThat(get(link(), "de-DE,de;q=0.9,en;q=0.5").body()).contains("<html lang=\"de\">", "Ihre E-Mail-Einstellungen");
    }

    @Test
    void saving_joins_and_leaves_lists_and_leaving_all_unsubscribes_every_one() throws Exception {
        HttpResponse<String> saved = post(link(), "action=save&list=" + listId("news") + "&list=" + listId("offers") + csrf(link()));

        assertThat(saved.statusCode()).isEqualTo(200);
        assertThat(saved.body()).contains("Your choices are saved.");
        assertThat(subscriptions()).containsExactly("news confirmed", "offers confirmed", "staff unsubscribed");
        assertThat(PersonEverywhere.rows(db.dataSource(), "SELECT detail FROM subscriber_event WHERE kind IN ('subscribed', 'unsubscribed')"
                + " AND detail LIKE '%preference centre%' ORDER BY id")).containsExactly("list 'offers', confirmed, by the preference centre",
                "by the preference centre");

        HttpResponse<String> left = post(link(), "action=leave-all" + csrf(link()));
        assertThat(left.body()).contains("You have left every list.");
        assertThat(subscriptions()).containsExactly("news unsubscribed", "offers unsubscribed", "staff unsubscribed");
    }

    @Test
    void a_list_not_offered_or_a_form_without_its_token_changes_nothing() throws Exception {
        assertThat(post(link(), "action=save&list=" + (listId("staff") + 100000) + csrf(link())).statusCode()).isEqualTo(400);
        assertThat(post(link(), "action=save&list=" + listId("news")).statusCode()).isEqualTo(400);
        String otherCsrf = "&csrf=" + tokens.token(PreferenceTokens.Kind.FORM, person.campaign, "other@example.org");
        assertThat(post(link(), "action=leave-all" + otherCsrf).body()).contains("Page expired");
        String form = csrf(link());
        clock.advance(PreferenceTokens.FORM_TTL.plusMinutes(1));
        assertThat(post(link(), "action=leave-all" + form).statusCode()).isEqualTo(400);
        assertThat(subscriptions()).containsExactly("news confirmed", "staff confirmed");
    }

    @Test
    void the_download_is_the_persons_data_as_json() throws Exception {
        HttpResponse<String> data = post(link(), "action=download" + csrf(link()));

        assertThat(data.statusCode()).isEqualTo(200);
        assertThat(data.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        assertThat(data.headers().firstValue("Content-Disposition")).hasValue("attachment; filename=\"my-data.json\"");
        JsonNode json = new ObjectMapper().readTree(data.body());
        assertThat(json.at("/subscriber/email").asText()).isEqualTo("Zelda.Erase@example.org");
        assertThat(json.at("/subscriber/name").asText()).isEqualTo(PersonEverywhere.NAME);
        assertThat(json.at("/attributes/plan").asText()).isEqualTo(PersonEverywhere.ATTRIBUTE);
        assertThat(json.at("/subscriptions").size()).isEqualTo(2);
        assertThat(json.at("/history").size()).isGreaterThanOrEqualTo(3);
        assertThat(json.at("/campaigns/0/campaign_id").asLong()).isEqualTo(person.campaign);
        assertThat(json.at("/campaigns/0/status").asText()).isEqualTo("sent");
    }

    @Test
    void erasure_is_asked_for_on_the_page_confirmed_by_the_mailed_link_and_then_nothing_of_the_person_is_left() throws Exception {
        HttpResponse<String> asked = post(link(), "action=erase" + csrf(link()));

        assertThat(asked.statusCode()).isEqualTo(200);
        assertThat(asked.body()).contains("We have sent a message to");
        assertThat(greenMail.waitForIncomingEmail(5000, 1)).isTrue();
        MimeMessage mail = greenMail.getReceivedMessages()[0];
        assertThat(mail.getAllRecipients()[0].toString()).isEqualTo(PersonEverywhere.EMAIL);
        assertThat(mail.getFrom()[0].toString()).isEqualTo("news@sender.example");
        assertThat(mail.getHeader("Auto-Submitted")).containsExactly("auto-generated");
        Matcher m = Pattern.compile(Pattern.quote(PUBLIC_BASE) + "(/p/erase/[A-Za-z0-9_-]+)").matcher(GreenMailUtil.getBody(mail).replace("=\r\n", ""));
        assertThat(m.find()).isTrue();
        String erase = m.group(1);
        assertThat(post(link(), "action=erase" + csrf(link())).body()).contains("a few minutes ago");
        assertThat(greenMail.getReceivedMessages()).hasSize(1);

        HttpResponse<String> confirm = get(erase, "en");
        assertThat(confirm.statusCode()).isEqualTo(200);
        assertThat(confirm.body()).contains("This cannot be undone").contains("value=\"erase\"");
        assertThat(PersonEverywhere.holding(db.dataSource(), PersonEverywhere.KEY)).isNotEmpty();

        HttpResponse<String> done = post(erase, "action=erase" + csrf(erase));
        assertThat(done.statusCode()).isEqualTo(200);
        assertThat(done.body()).contains("Your data is erased");
        assertThat(PersonEverywhere.holding(db.dataSource(), PersonEverywhere.KEY)).isEmpty();
        assertThat(PersonEverywhere.holding(db.dataSource(), PersonEverywhere.NAME)).isEmpty();
        assertThat(PersonEverywhere.rows(db.dataSource(), "SELECT CONCAT(via, ' ', actor) FROM erasure_audit ORDER BY id DESC LIMIT 1"))
                .containsExactly("preferences self");
        assertThat(get(link(), "en").body()).contains("We hold no subscriptions");
    }

    @Test
    void forged_altered_misused_and_expired_tokens_get_a_clear_page_and_change_nothing() throws Exception {
        String link = link();
        String altered = link.substring(0, 12) + (link.charAt(12) == 'A' ? 'B' : 'A') + link.substring(13);
        String eraseLink = "/p/erase/" + tokens.token(PreferenceTokens.Kind.ERASE, person.campaign, PersonEverywhere.EMAIL);
        String linkAsErase = "/p/erase/" + link.substring("/p/".length());

        assertThat(get(altered, "en").statusCode()).isEqualTo(400);
        assertThat(get(altered, "en").body()).contains("Invalid link", "Nothing was changed");
        assertThat(post(altered, "action=leave-all" + csrf(link)).statusCode()).isEqualTo(400);
        assertThat(get(linkAsErase, "en").statusCode()).isEqualTo(400);
        assertThat(post(linkAsErase, "action=erase" + csrf(link)).statusCode()).isEqualTo(400);
        String form = csrf(eraseLink);
        clock.advance(PreferenceTokens.ERASE_TTL.plusMinutes(1));
        assertThat(get(eraseLink, "en").statusCode()).isEqualTo(400);
        assertThat(post(eraseLink, "action=erase" + form).statusCode()).isEqualTo(400);
        assertThat(get("/p/", "en").statusCode()).isEqualTo(404);
        assertThat(subscriptions()).containsExactly("news confirmed", "staff confirmed");
        assertThat(PersonEverywhere.holding(db.dataSource(), PersonEverywhere.KEY)).contains("subscriber.email");
    }

    private String link() {
        return "/p/" + tokens.token(PreferenceTokens.Kind.LINK, person.campaign, PersonEverywhere.EMAIL);
    }

    /** The form token of the page at {@code path}, as a form field. */
    private String csrf(String path) throws Exception {
        Matcher m = CSRF.matcher(get(path, "en").body());
        assertThat(m.find()).as("a form token on " + path).isTrue();
        return "&csrf=" + URLEncoder.encode(m.group(1), StandardCharsets.UTF_8);
    }

    private static long listId(String name) throws Exception {
        return PersonEverywhere.one(db.dataSource(), "SELECT id FROM subscriber_list WHERE name = '" + name + "'");
    }

    private static List<String> subscriptions() throws Exception {
        return PersonEverywhere.rows(db.dataSource(), "SELECT CONCAT(l.name, ' ', m.status) FROM subscription m JOIN subscriber_list l"
                + " ON l.id = m.list_id JOIN subscriber s ON s.id = m.subscriber_id WHERE s.email_key = '" + PersonEverywhere.KEY
                + "' ORDER BY l.name");
    }

    private static List<String> checkboxes(String html) {
        Matcher m = Pattern.compile("<input type=\"checkbox\" name=\"list\" value=\"\\d+\" id=\"list-\\d+\"( checked)?[^>]*><label[^>]*>([^<]+)")
                .matcher(html);
        List<String> found = new java.util.ArrayList<>();
        while (m.find()) {
            found.add(m.group(2) + (m.group(1) == null ? "" : " checked"));
        }
        return found;
    }

    private HttpResponse<String> get(String path, String language) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Accept-Language", language).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String form) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
