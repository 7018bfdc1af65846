package dev.mailrun.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.app.cli.CliHarness;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.WebVersionTokens;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import jakarta.mail.Message;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code {{ web_url }}} end to end: a tracked campaign created through the real command line (so its
 * template is stored and pinned), sent by a tick to GreenMail; each recipient's link, taken from the
 * message they received, opens their own message on the real public listener, without tracking and
 * without script; altered, forged and expired links answer 404. A campaign's own web version setting
 * decides what its pages show, over webversion.personal either way.
 */
class WebVersionEndToEndTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final String TRACKING = "https://t.sender.example";
    private static final Pattern WEB_URL = Pattern.compile("https://unsubscribe\\.sender\\.example/w/[A-Za-z0-9_-]+");
    private static final Pattern UNSUBSCRIBE_URL = Pattern.compile("https://unsubscribe\\.sender\\.example/u/[A-Za-z0-9_-]+");
    private static final String HTML = "<html><head><style>p { color: #333; }</style></head><body>"
            + "<p>Hi {{ name }}, news for {{ city | default(\"your city\") }}.</p>"
            + "<p><a href=\"https://shop.example/sale\">Sale</a></p>"
            + "<p><a href=\"{{ web_url }}\">View in your browser</a> <a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></p>"
            + "</body></html>\n";

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-26T10:00:00Z"), Duration.ofMillis(1));
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private int port;

    private Map<String, String> env() throws Exception {
        Path template = Files.createDirectories(dir.resolve("templates").resolve("news"));
        Files.writeString(template.resolve("subject.txt"), "News\n");
        Files.writeString(template.resolve("body.txt"), "Hi {{ name }}. Online: {{ web_url }}\nUnsubscribe: {{ unsubscribe_url }}\n");
        Files.writeString(template.resolve("body.html"), HTML);
        Map<String, String> env = WorkerEnv.of(db, greenMail.getSmtp().getPort());
        env.put("MAILRUN_TEMPLATES_DIR", dir.resolve("templates").toString());
        env.put("MAILRUN_HTTP_PORT", Integer.toString(port));
        env.put("MAILRUN_TRACKING_ENABLED", "true");
        env.put("MAILRUN_TRACKING_BASE_URL", TRACKING);
        env.put("MAILRUN_WEBVERSION_TTL", "30d");
        return env;
    }

    @Test
    void the_web_version_link_shows_the_right_recipients_message_and_refuses_altered_tokens() throws Exception {
        port = freePort();
        Map<String, String> env = env();
        CliHarness cli = new CliHarness(env, clock);
        long campaign = send(cli);

        Map<String, String> links = new HashMap<>();
        Map<String, String> unsubscribes = new HashMap<>();
        for (MimeMessage m : greenMail.getReceivedMessages()) {
            String to = ((InternetAddress) m.getRecipients(Message.RecipientType.TO)[0]).getAddress();
            String html = part(m, "text/html");
            String link = first(WEB_URL, part(m, "text/plain"));
            assertThat(html).as("never rewritten for tracking").contains("<a href=\"" + link + "\">View in your browser</a>")
                    .contains(TRACKING + "/c/");
            links.put(to, link);
            unsubscribes.put(to, first(UNSUBSCRIBE_URL, html));
        }
        assertThat(links.get("ann@list.example")).isNotEqualTo(links.get("bob@list.example"));

        try (AppContext ctx = AppContext.load(Optional.empty(), env, clock);
             Services services = new Services(ctx, ProductionLinks::of);
             HttpEndpoint endpoint = HttpEndpoint.start(services, false)) {
            HttpResponse<String> ann = get(links.get("ann@list.example"));
            assertThat(ann.statusCode()).isEqualTo(200);
            assertThat(ann.body()).contains("<p>Hi Ann, news for Oslo.</p>")
                    .contains("<a href=\"https://shop.example/sale\">Sale</a>")
                    .contains("<a href=\"" + links.get("ann@list.example") + "\">View in your browser</a>")
                    .contains("<a href=\"" + unsubscribes.get("ann@list.example") + "\">Unsubscribe</a>")
                    .contains("<style>p { color: #333; }</style>")
                    .doesNotContain(TRACKING).doesNotContainIgnoringCase("<script").doesNotContain("Bob");
            assertThat(ann.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp -> assertThat(csp)
                    .startsWith("default-src 'none'; img-src https: data:; style-src 'unsafe-inline'")
                    .doesNotContain("script"));
            assertThat(ann.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
            assertThat(ann.headers().firstValue("Referrer-Policy")).contains("no-referrer");
            assertThat(ann.headers().firstValue("X-Robots-Tag")).contains("noindex");
            assertThat(ann.headers().firstValue("Cache-Control")).contains("private, no-store");

            HttpResponse<String> bob = get(links.get("bob@list.example"));
            assertThat(bob.statusCode()).isEqualTo(200);
            assertThat(bob.body()).contains("<p>Hi Bob, news for your city.</p>").doesNotContain("Ann").doesNotContain("Oslo");
            assertThat(request(links.get("bob@list.example"), "HEAD").statusCode()).isEqualTo(200);
            assertThat(request(links.get("bob@list.example"), "POST").statusCode()).isEqualTo(405);

            // Altered anywhere, forged, another recipient's ids, a path below the token: the one 404 page.
            String link = links.get("ann@list.example");
            String token = link.substring(link.lastIndexOf('/') + 1);
            for (int i : new int[] {0, token.length() / 2, token.length() - 1}) {
                String altered = token.substring(0, i) + (token.charAt(i) == 'A' ? 'B' : 'A') + token.substring(i + 1);
                HttpResponse<String> refused = get("https://unsubscribe.sender.example/w/" + altered);
                assertThat(refused.statusCode()).as("altered at %d", i).isEqualTo(404);
                assertThat(refused.body()).contains("Page not found").doesNotContain("Ann");
            }
            WebVersionTokens forger = new WebVersionTokens(SigningKey.of("not-the-secret-not-the-secret-not-the-secret"),
                    Duration.ofDays(30), clock);
            assertThat(get("https://unsubscribe.sender.example/w/" + forger.token(campaign, recipientId(campaign, "ann@list.example")))
                    .statusCode()).isEqualTo(404);
            WebVersionTokens genuine = new WebVersionTokens(SigningKey.of(WorkerEnv.UNSUBSCRIBE_SECRET), Duration.ofDays(30), clock);
            assertThat(get("https://unsubscribe.sender.example/w/" + genuine.token(campaign, 999_999)).statusCode())
                    .as("a recipient that is not the campaign's").isEqualTo(404);
            assertThat(get(link + "/x").statusCode()).isEqualTo(404);
            assertThat(get("https://unsubscribe.sender.example/w/").statusCode()).isEqualTo(404);

            // No view is counted: the page has no open image and its links go straight to their sites.
            clock.advance(Duration.ofSeconds(1));
            assertThat(services.tracker().flusher().flush()).isZero();

            // The link expires webversion.ttl after its message was built.
            clock.advance(Duration.ofDays(29));
            assertThat(get(link).statusCode()).isEqualTo(200);
            clock.advance(Duration.ofDays(1));
            assertThat(get(link).statusCode()).isEqualTo(404);
            assertThat(get(links.get("bob@list.example")).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void without_personal_fields_and_for_a_test_send_the_page_has_only_the_campaigns_values() throws Exception {
        port = freePort();
        Map<String, String> env = env();
        CliHarness cli = new CliHarness(env, clock);
        long campaign = send(cli);
        String ann = greenMail.getReceivedMessages()[0].getRecipients(Message.RecipientType.TO)[0].toString().contains("ann@")
                ? first(WEB_URL, part(greenMail.getReceivedMessages()[0], "text/plain"))
                : first(WEB_URL, part(greenMail.getReceivedMessages()[1], "text/plain"));
        CliHarness.Result test = cli.run("send-test", "--campaign", Long.toString(campaign), "--to", "tester@sender.example",
                "--name", "Tess", "--field", "city=Bergen");
        assertThat(test.exitCode()).as(test.err()).isZero();
        String tess = first(WEB_URL, part(greenMail.getReceivedMessages()[2], "text/plain"));

        try (AppContext ctx = AppContext.load(Optional.empty(), env, clock);
             Services services = new Services(ctx, ProductionLinks::of);
             HttpEndpoint endpoint = HttpEndpoint.start(services, false)) {
            assertThat(get(tess).body()).as("a test send's fields are not stored").contains("<p>Hi , news for your city.</p>")
                    .doesNotContain("Tess").doesNotContain("Bergen").contains("<a href=\"\">Unsubscribe</a>");
        }
        Map<String, String> impersonal = new HashMap<>(env);
        impersonal.put("MAILRUN_WEBVERSION_PERSONAL", "false");
        try (AppContext ctx = AppContext.load(Optional.empty(), impersonal, clock);
             Services services = new Services(ctx, ProductionLinks::of);
             HttpEndpoint endpoint = HttpEndpoint.start(services, false)) {
            HttpResponse<String> page = get(ann);
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<p>Hi , news for your city.</p>").doesNotContain("Ann").doesNotContain("Oslo")
                    .contains("<a href=\"" + ann + "\">View in your browser</a>").contains("<a href=\"\">Unsubscribe</a>");
        }
    }

    @Test
    void a_campaigns_own_web_version_setting_is_what_its_pages_show_whatever_webversion_personal_says() throws Exception {
        port = freePort();
        Map<String, String> env = env();
        CliHarness cli = new CliHarness(env, clock);
        String anonymous = annsLink(send(cli, "--web-version", "anonymous"));
        String personal = annsLink(send(cli, "--web-version", "personal"));
        String following = annsLink(send(cli));

        try (AppContext ctx = AppContext.load(Optional.empty(), env, clock);
             Services services = new Services(ctx, ProductionLinks::of);
             HttpEndpoint endpoint = HttpEndpoint.start(services, false)) {
            assertThat(get(anonymous).body()).as("anonymous, under webversion.personal=true")
                    .contains("<p>Hi , news for your city.</p>", "<a href=\"\">Unsubscribe</a>").doesNotContain("Ann", "Oslo");
            assertThat(get(following).body()).contains("<p>Hi Ann, news for Oslo.</p>");
        }
        Map<String, String> impersonal = new HashMap<>(env);
        impersonal.put("MAILRUN_WEBVERSION_PERSONAL", "false");
        try (AppContext ctx = AppContext.load(Optional.empty(), impersonal, clock);
             Services services = new Services(ctx, ProductionLinks::of);
             HttpEndpoint endpoint = HttpEndpoint.start(services, false)) {
            assertThat(get(personal).body()).as("personal, under webversion.personal=false").contains("<p>Hi Ann, news for Oslo.</p>")
                    .contains("<a href=\"https://unsubscribe.sender.example/u/");
            assertThat(get(following).body()).as("a campaign without a setting follows the key")
                    .contains("<p>Hi , news for your city.</p>").doesNotContain("Ann");
        }
    }

    @Test
    void each_recipient_of_an_ab_test_sees_the_version_their_variant_sent_as_their_message_had_it() throws Exception {
        port = freePort();
        Map<String, String> env = env();
        Path offer = Files.createDirectories(dir.resolve("templates").resolve("offer"));
        Files.writeString(offer.resolve("subject.txt"), "Offer\n");
        Files.writeString(offer.resolve("body.txt"), "{{ offer }} off, {{ name }}: {{ web_url }}\n{{ unsubscribe_url }}\n");
        Files.writeString(offer.resolve("body.html"), "<p>{{ offer }} off, {{ name }}</p><a href=\"{{ web_url }}\">online</a>"
                + "<a href=\"{{ unsubscribe_url }}\">Unsubscribe</a>\n");
        CliHarness cli = new CliHarness(env, clock);
        CliHarness.Result created = cli.run("campaign", "create", "--name", "AB", "--template", "news",
                "--from", "news@sender.example", "--variant", "A", "--variant", "B:template=offer;field.offer=20%",
                "--test-share", "50%", "--decide", "manual");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();
        Path csv = dir.resolve("ab.csv");
        Files.writeString(csv, "email,name,city\nann@list.example,Ann,Oslo\nbob@list.example,Bob,Bergen\n"
                + "cid@list.example,Cid,Riga\ndan@list.example,Dan,Turku\n");
        assertThat(cli.run("recipients", "import", "--campaign", id, csv.toString()).exitCode()).isZero();
        assertThat(cli.run("campaign", "start", id).exitCode()).isZero();
        CliHarness.Result tick = cli.run("tick");
        assertThat(tick.exitCode()).as(tick.err()).isZero();
        MimeMessage[] sent = greenMail.getReceivedMessages();
        assertThat(sent).as("the test share: one recipient per variant").hasSize(2);
        assertThat(sent).extracting(MimeMessage::getSubject).containsExactlyInAnyOrder("News", "Offer");

        try (AppContext ctx = AppContext.load(Optional.empty(), env, clock);
             Services services = new Services(ctx, ProductionLinks::of);
             HttpEndpoint endpoint = HttpEndpoint.start(services, false)) {
            for (MimeMessage m : sent) {
                String html = part(m, "text/html");
                HttpResponse<String> page = get(first(WEB_URL, html));
                assertThat(page.statusCode()).isEqualTo(200);
                assertThat(page.body()).as("an untracked campaign's page is its message's HTML part").isEqualToNormalizingNewlines(html);
            }
        }
        String offerPage = part(sent[0].getSubject().equals("Offer") ? sent[0] : sent[1], "text/html");
        assertThat(offerPage).contains("<p>20% off, ");
    }

    private long send(CliHarness cli, String... options) throws Exception {
        int before = greenMail.getReceivedMessages().length;
        List<String> args = new ArrayList<>(List.of("campaign", "create", "--name", "News", "--template", "news",
                "--from", "news@sender.example", "--track", "opens,clicks"));
        args.addAll(List.of(options));
        CliHarness.Result created = cli.run(args.toArray(String[]::new));
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();
        Path csv = dir.resolve("list.csv");
        Files.writeString(csv, "email,name,city\nann@list.example,Ann,Oslo\nbob@list.example,Bob,\n");
        assertThat(cli.run("recipients", "import", "--campaign", id, csv.toString()).exitCode()).isZero();
        assertThat(cli.run("campaign", "start", id).exitCode()).isZero();
        CliHarness.Result tick = cli.run("tick");
        assertThat(tick.exitCode()).as(tick.err()).isZero();
        assertThat(greenMail.getReceivedMessages()).hasSize(before + 2);
        return Long.parseLong(id);
    }

    /** Ann's web version link in the message campaign {@code id} sent her. */
    private String annsLink(long id) throws Exception {
        WebVersionTokens tokens = new WebVersionTokens(SigningKey.of(WorkerEnv.UNSUBSCRIBE_SECRET), Duration.ofDays(30), clock);
        long ann = recipientId(id, "ann@list.example");
        for (MimeMessage m : greenMail.getReceivedMessages()) {
            String link = first(WEB_URL, part(m, "text/plain"));
            Optional<WebVersionTokens.Target> target = tokens.verify(link.substring(link.lastIndexOf('/') + 1));
            if (target.isPresent() && target.get().campaignId() == id && target.get().recipientId() == ann) {
                return link;
            }
        }
        throw new AssertionError("no message of campaign " + id + " to ann@");
    }

    private HttpResponse<String> get(String url) throws Exception {
        return request(url, "GET");
    }

    private HttpResponse<String> request(String url, String method) throws Exception {
        URI local = URI.create("http://127.0.0.1:" + port + URI.create(url).getRawPath());
        HttpRequest.Builder b = HttpRequest.newBuilder(local).timeout(Duration.ofSeconds(10));
        b.method(method, HttpRequest.BodyPublishers.noBody());
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static long recipientId(long campaign, String email) throws Exception {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT id FROM recipient WHERE campaign_id = ? AND email = ?")) {
            ps.setLong(1, campaign);
            ps.setString(2, email);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getLong(1);
            }
        }
    }

    private static String first(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        assertThat(m.find()).as("%s in %s", pattern, text).isTrue();
        return m.group();
    }

    private static String part(MimeMessage m, String type) throws Exception {
        MimeMultipart mp = (MimeMultipart) m.getContent();
        for (int i = 0; i < mp.getCount(); i++) {
            if (mp.getBodyPart(i).isMimeType(type)) {
                return (String) mp.getBodyPart(i).getContent();
            }
        }
        throw new AssertionError("no " + type + " part");
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
