package dev.mailrun.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.app.cli.CliHarness;
import dev.mailrun.campaign.model.TrackingClass;
import dev.mailrun.campaign.store.TrackingEventTable;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.TrackingTokens;
import dev.mailrun.mail.dkim.RelaxedDkimVerifier;
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
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
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
 * A tracked campaign end to end: created with --track through the real command line, sent by a
 * tick to GreenMail with DKIM, its delivered links followed over real HTTP on the public listener
 * by a person (GET after the clock moved on), a link scanner (HEAD, then every link within a
 * second of delivery) and Gmail's image proxy; the counts land in their classes. Forged tokens
 * and links of an index the template never had get 404 and record nothing.
 */
class TrackingEndToEndTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final String BASE = "https://t.sender.example";
    static final String CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            + "Chrome/124.0.0.0 Safari/537.36";
    static final String APPLE_PROXY = "Mozilla/5.0";
    /** Links that are never rewritten, exactly as the template writes them. */
    private static final List<String> UNTRACKED = List.of("<a href=\"mailto:help@sender.example\">help</a>",
            "<a href=\"tel:+4930123456\">call</a>", "<a href=\"#top\">top</a>",
            "<a data-notrack href=\"https://sender.example/terms?a=1&amp;b=2\">terms</a>",
            "<a href=\"https://partner.example/x\">partner</a>");
    private static final String HTML = "<html><body><img src=\"https://sender.example/logo.png\" alt=\"Sender\">"
            + "<p id=\"top\">Hi {{ name }},</p>"
            + "<p><a href=\"https://shop.example/sale?utm=mail&amp;x=1\">Sale</a></p>"
            + "<p><a href=\"https://shop.example/new\">New</a></p>"
            + String.join("\n", UNTRACKED)
            + "<p><a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></p></body></html>\n";

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-26T10:00:00Z"), Duration.ofMillis(1));
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private int port;

    private Map<String, String> env(KeyPair dkim) throws Exception {
        Path templates = dir.resolve("templates").resolve("sale");
        Files.createDirectories(templates);
        Files.writeString(templates.resolve("subject.txt"), "Sale\n");
        Files.writeString(templates.resolve("body.txt"), "Hi {{ name }}, https://shop.example/sale\n");
        Files.writeString(templates.resolve("body.html"), HTML);
        Path pem = dir.resolve("dkim.pem");
        Files.writeString(pem, "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(dkim.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n");
        Map<String, String> env = WorkerEnv.of(db, greenMail.getSmtp().getPort());
        env.put("MAILRUN_TEMPLATES_DIR", dir.resolve("templates").toString());
        env.put("MAILRUN_HTTP_PORT", Integer.toString(port));
        env.put("MAILRUN_DKIM_DOMAIN", "sender.example");
        env.put("MAILRUN_DKIM_SELECTOR", "s1");
        env.put("MAILRUN_DKIM_PRIVATE_KEY_FILE", pem.toString());
        env.put("MAILRUN_TRACKING_ENABLED", "true");
        env.put("MAILRUN_TRACKING_BASE_URL", BASE);
        env.put("MAILRUN_TRACKING_EXCLUDE_DOMAINS", "partner.example");
        return env;
    }

    @Test
    void people_scanners_and_image_proxies_are_counted_apart_and_forgeries_record_nothing() throws Exception {
        port = freePort();
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair dkim = generator.generateKeyPair();
        Map<String, String> env = env(dkim);
        CliHarness cli = new CliHarness(env, clock);
        long campaign = send(cli);

        Map<String, List<String>> links = new HashMap<>();
        Map<String, String> pixels = new HashMap<>();
        for (MimeMessage m : greenMail.getReceivedMessages()) {
            String raw = GreenMailUtil.getWholeMessage(m);
            RelaxedDkimVerifier.Result dkimResult = RelaxedDkimVerifier.verify(raw, dkim.getPublic());
            assertThat(dkimResult.bodyHashMatches()).as("bh=").isTrue();
            assertThat(dkimResult.signatureValid()).as("b=").isTrue();
            assertThat(m.getHeader("List-Unsubscribe")[0]).doesNotContain(BASE);
            String to = ((InternetAddress) m.getRecipients(Message.RecipientType.TO)[0]).getAddress();
            String html = html(m);
            UNTRACKED.forEach(link -> assertThat(html).contains(link));
            assertThat(html).contains("<a href=\"https://unsubscribe.sender.example/u/");
            links.put(to, all(html, "href=\"(" + Pattern.quote(BASE) + "/c/[a-z2-7]+)\""));
            pixels.put(to, all(html, "<img src=\"(" + Pattern.quote(BASE) + "/o/[a-z2-7]+\\.gif)\"").get(0));
            assertThat(text(m)).as("the text part is not rewritten").contains("https://shop.example/sale");
        }
        assertThat(links.get("ann@list.example")).hasSize(2);

        try (AppContext ctx = AppContext.load(Optional.empty(), env, clock);
             Services services = new Services(ctx, ProductionLinks::of);
             HttpEndpoint endpoint = HttpEndpoint.start(services, false)) {
            // A link scanner, right after delivery: HEAD on the first link, then both links with GET within a second.
            String bobSale = links.get("bob@list.example").get(0);
            assertThat(request(bobSale, "HEAD", "Mozilla/5.0").statusCode()).isEqualTo(302);
            assertThat(request(bobSale, "GET", CHROME).headers().firstValue("Location"))
                    .contains("https://shop.example/sale?utm=mail&x=1");
            assertThat(request(links.get("bob@list.example").get(1), "GET", CHROME).statusCode()).isEqualTo(302);
            // Apple's privacy proxy fetches cid's image as the message arrives.
            HttpResponse<String> gif = request(pixels.get("cid@list.example"), "GET", APPLE_PROXY);
            assertThat(gif.statusCode()).isEqualTo(200);
            assertThat(gif.headers().firstValue("Content-Type")).contains("image/gif");
            // A person, twenty minutes later: opens, then follows the second link, then the first a minute on.
            clock.advance(Duration.ofMinutes(20));
            assertThat(request(pixels.get("ann@list.example"), "GET", CHROME).statusCode()).isEqualTo(200);
            HttpResponse<String> click = request(links.get("ann@list.example").get(1), "GET", CHROME);
            assertThat(click.statusCode()).isEqualTo(302);
            assertThat(click.headers().firstValue("Location")).contains("https://shop.example/new");
            clock.advance(Duration.ofMinutes(1));
            assertThat(request(links.get("ann@list.example").get(0), "GET", CHROME).statusCode()).isEqualTo(302);

            // Forged and altered: nothing recorded.
            String annLink = links.get("ann@list.example").get(0);
            String token = annLink.substring(annLink.lastIndexOf('/') + 1);
            char last = token.charAt(token.length() - 1);
            String altered = annLink.substring(0, annLink.length() - 1) + (last == 'a' ? 'b' : 'a');
            assertThat(request(altered, "GET", CHROME).statusCode()).isEqualTo(404);
            TrackingTokens genuine = new TrackingTokens(SigningKey.of(WorkerEnv.UNSUBSCRIBE_SECRET));
            long annId = recipientId("ann@list.example");
            assertThat(request(BASE + "/c/" + genuine.clickToken(campaign, annId, 2), "GET", CHROME).statusCode())
                    .as("a signed token for a link the template does not have").isEqualTo(404);
            assertThat(request(BASE + "/c/" + genuine.clickToken(campaign, 999_999, 0), "GET", CHROME).statusCode())
                    .as("an unknown recipient").isEqualTo(404);
            TrackingTokens forger = new TrackingTokens(SigningKey.of("not-the-secret-not-the-secret-not-the-secret"));
            assertThat(request(BASE + "/c/" + forger.clickToken(campaign, annId, 0), "GET", CHROME).statusCode()).isEqualTo(404);
            assertThat(request(BASE + "/c/" + token + "/x", "GET", CHROME).statusCode()).isEqualTo(404);
            assertThat(request(BASE + "/o/" + token + ".gif", "GET", CHROME).statusCode())
                    .as("a click token is not an open").isEqualTo(404);

            clock.advance(Duration.ofSeconds(1));   // a click is held a second, in case it begins a burst
            assertThat(services.tracker().flusher().flush()).isEqualTo(7);
        }

        Map<String, Long> counts = counts(campaign);
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of(
                "click human", 2L, "click scanner", 3L, "open human", 1L, "open machine_open", 1L));
        try (Connection c = db.dataSource().getConnection()) {
            TrackingEventTable events = new TrackingEventTable();
            assertThat(events.humanUniqueClicks(c, campaign)).isEqualTo(1);
            assertThat(events.counts(c, campaign)).contains(
                    new TrackingEventTable.Count(true, 0, TrackingClass.HUMAN, 1, 1),
                    new TrackingEventTable.Count(true, 0, TrackingClass.SCANNER, 2, 1));
        }

        // What status reports: people and machines apart, per campaign and per link.
        CliHarness.Result status = cli.run("campaign", "status", Long.toString(campaign), "--json");
        assertThat(status.exitCode()).as(status.err()).isZero();
        com.fasterxml.jackson.databind.JsonNode engagement = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(status.out()).path("engagement");
        assertThat(engagement.path("track").asText()).isEqualTo("opens,clicks");
        assertThat(engagement.path("opens").path("human_unique").asLong()).isEqualTo(1);
        assertThat(engagement.path("opens").path("machine").asLong()).isEqualTo(1);
        assertThat(engagement.path("opens").path("machine_share").asDouble()).isEqualTo(0.5);
        assertThat(engagement.path("clicks").path("human_total").asLong()).isEqualTo(2);
        assertThat(engagement.path("clicks").path("scanner").asLong()).isEqualTo(3);
        assertThat(engagement.path("links").get(0).path("url").asText()).isEqualTo("https://shop.example/sale?utm=mail&x=1");
        assertThat(engagement.path("links").get(0).path("scanner").asLong()).isEqualTo(2);
        assertThat(engagement.path("links").get(1).path("human_unique").asLong()).isEqualTo(1);
        CliHarness.Result text = cli.run("campaign", "status", Long.toString(campaign));
        assertThat(text.out()).contains("tracking (opens,clicks): opens human 1 unique / 1 total, machine 1, scanner 0, "
                + "unknown 0; machine share 50%").contains("clicks human 1 unique / 2 total, scanner 3, unknown 0");

        Path page = dir.resolve("report.html");
        assertThat(cli.run("campaign", "report", Long.toString(campaign), "--html", page.toString()).exitCode()).isZero();
        assertThat(Files.readString(page)).contains("<h3>Engagement (opens,clicks)</h3>")
                .contains("<tr><td>clicks</td><td>1</td><td>2</td><td>0</td><td>3</td><td>0</td></tr>")
                .contains("machine share of opens: 50%");

        // The export: each recipient's first and last human open and click.
        Path exported = dir.resolve("export.csv");
        CliHarness.Result export = cli.run("campaign", "export", Long.toString(campaign), exported.toString());
        assertThat(export.exitCode()).as(export.err()).isZero();
        List<String> rows = Files.readAllLines(exported);
        assertThat(rows.get(0)).endsWith(",attachment_sha256,variant,content_version,first_open_at,last_open_at,first_click_at,last_click_at");
        String open = "2026-11-26T10:20:00";
        assertThat(rows).filteredOn(r -> r.contains("ann@list.example")).singleElement().satisfies(r -> {
            String[] f = r.split(",", -1);
            assertThat(f[f.length - 4]).startsWith(open).isEqualTo(f[f.length - 3]);
            assertThat(Instant.parse(f[f.length - 2])).isBefore(Instant.parse(f[f.length - 1]));
        });
        assertThat(rows).filteredOn(r -> r.contains("bob@list.example")).singleElement()
                .satisfies(r -> assertThat(r).endsWith(",,,,"));

        // Erasing ann deletes her events; her tracking links then answer 404 and record nothing.
        CliHarness.Result erased = cli.run("suppressions", "erase-tracking", "Ann@List.example");
        assertThat(erased.exitCode()).as(erased.err()).isZero();
        assertThat(erased.out()).contains("erased 3 open(s) and click(s) of ann@list.example");
        assertThat(counts(campaign)).doesNotContainKey("click human").doesNotContainKey("open human");
        try (AppContext ctx = AppContext.load(Optional.empty(), env, clock);
             Services services = new Services(ctx, ProductionLinks::of);
             HttpEndpoint endpoint = HttpEndpoint.start(services, false)) {
            assertThat(request(links.get("ann@list.example").get(0), "GET", CHROME).statusCode()).isEqualTo(404);
            assertThat(request(pixels.get("ann@list.example"), "GET", CHROME).statusCode()).isEqualTo(404);
            assertThat(request(links.get("cid@list.example").get(0), "GET", CHROME).statusCode()).isEqualTo(302);
            clock.advance(Duration.ofSeconds(1));
            assertThat(services.tracker().flusher().flush()).as("only cid's click").isEqualTo(1);
        }
    }

    @Test
    void track_is_refused_with_one_line_while_tracking_is_off() throws Exception {
        port = freePort();
        Map<String, String> env = WorkerEnv.of(db, greenMail.getSmtp().getPort());
        CliHarness.Result r = new CliHarness(env, clock).run("campaign", "create", "--name", "N", "--template", "newsletter",
                "--from", "news@sender.example", "--track", "clicks");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("mailrun: --track: tracking is not enabled (tracking.enabled=true and tracking.base-url)")
                .doesNotContain("\n");
    }

    private long send(CliHarness cli) throws Exception {
        CliHarness.Result created = cli.run("campaign", "create", "--name", "Sale", "--template", "sale",
                "--from", "news@sender.example", "--track", "opens,clicks");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();
        Path csv = dir.resolve("list.csv");
        Files.writeString(csv, "email,name\nann@list.example,Ann\nbob@list.example,Bob\ncid@list.example,Cid\n");
        assertThat(cli.run("recipients", "import", "--campaign", id, csv.toString()).exitCode()).isZero();
        assertThat(cli.run("campaign", "start", id).exitCode()).isZero();
        CliHarness.Result tick = cli.run("tick");
        assertThat(tick.exitCode()).as(tick.err()).isZero();
        assertThat(greenMail.getReceivedMessages()).hasSize(3);
        return Long.parseLong(id);
    }

    private HttpResponse<String> request(String url, String method, String userAgent) throws Exception {
        URI u = URI.create(url);
        URI local = URI.create("http://127.0.0.1:" + port + u.getRawPath());
        HttpRequest.Builder b = HttpRequest.newBuilder(local).header("User-Agent", userAgent).timeout(Duration.ofSeconds(10));
        b.method(method, HttpRequest.BodyPublishers.noBody());
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.ISO_8859_1));
    }

    private static String html(MimeMessage m) throws Exception {
        return part(m, "text/html");
    }

    private static String text(MimeMessage m) throws Exception {
        return part(m, "text/plain");
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

    private static List<String> all(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static long recipientId(String email) throws Exception {
        try (Connection c = db.dataSource().getConnection();
             var ps = c.prepareStatement("SELECT id FROM recipient WHERE email = ?")) {
            ps.setString(1, email);
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static Map<String, Long> counts(long campaign) throws Exception {
        Map<String, Long> out = new HashMap<>();
        try (Connection c = db.dataSource().getConnection()) {
            for (TrackingEventTable.Count count : new TrackingEventTable().counts(c, campaign)) {
                if (count.linkIndex() == -1) {
                    out.put((count.click() ? "click " : "open ") + count.trackingClass().dbValue(), count.total());
                }
            }
        }
        return out;
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
