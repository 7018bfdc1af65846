package dev.mailrun.app;

import static dev.mailrun.testing.FeedbackPayloads.json;
import static dev.mailrun.testing.FeedbackPayloads.mailgunEvent;
import static dev.mailrun.testing.FeedbackPayloads.postmarkBounce;
import static dev.mailrun.testing.FeedbackPayloads.sendgridEvent;
import static dev.mailrun.testing.FeedbackPayloads.sesBounce;
import static dev.mailrun.testing.FeedbackPayloads.sesComplaint;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.app.cli.CliHarness;
import dev.mailrun.testing.MailgunSigner;
import dev.mailrun.testing.SendGridSigner;
import dev.mailrun.testing.SnsSigner;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import jakarta.mail.Message;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeUtility;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
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
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Provider feedback end to end: a campaign sent through the real command line to GreenMail carries
 * each enabled provider's metadata; the test then plays SES (signed SNS messages with a local
 * certificate), Postmark, SendGrid and Mailgun, echoing that metadata in their documented payloads
 * over HTTP to the real endpoint, and reads suppressions, soft-bounce counts, campaign counters and a
 * complaint-breaker pause back from the database and the command line. Forged and replayed requests
 * in between change nothing.
 */
class FeedbackEndToEndTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final String POSTMARK_USER = "postmark-hooks";
    private static final String POSTMARK_PASSWORD = "a-postmark-password-0123456789";
    private static final String MAILGUN_KEY = "key-0123456789abcdef0123456789abcdef";
    private static final List<String> READERS = List.of("ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));
    private final SnsSigner sns = SnsSigner.create();
    private final SendGridSigner sendgrid = new SendGridSigner();
    private final MailgunSigner mailgun = new MailgunSigner(MAILGUN_KEY);
    private final HttpClient http = HttpClient.newHttpClient();
    private int port;

    private Map<String, String> env() throws Exception {
        Map<String, String> env = WorkerEnv.of(db, greenMail.getSmtp().getPort());
        env.put("MAILRUN_UNSUBSCRIBE_BASE_URL", "https://mail.sender.example");
        env.put("MAILRUN_HTTP_PORT", Integer.toString(port));
        env.put("MAILRUN_BOUNCE_MIN_SAMPLE", "5");
        env.put("MAILRUN_FEEDBACK_SES_ENABLED", "true");
        env.put("MAILRUN_FEEDBACK_SES_TOPIC_ARNS", SnsSigner.TOPIC);
        env.put("MAILRUN_FEEDBACK_SES_CONFIGURATION_SET", "mailrun");
        env.put("MAILRUN_FEEDBACK_POSTMARK_USER", POSTMARK_USER);
        env.put("MAILRUN_FEEDBACK_POSTMARK_PASSWORD", POSTMARK_PASSWORD);
        env.put("MAILRUN_FEEDBACK_SENDGRID_PUBLIC_KEY", sendgrid.publicKey());
        env.put("MAILRUN_FEEDBACK_MAILGUN_SIGNING_KEY", MAILGUN_KEY);
        return env;
    }

    /** What one message carries for each provider, and the ids they agree on. */
    private record Tags(String address, long campaign, long recipient, Map<String, String> ses, Map<String, String> postmark,
                        Map<String, String> sendgrid, Map<String, String> mailgun) {}

    @Test
    void provider_events_for_a_sent_campaign_suppress_count_fail_and_pause_and_forgeries_change_nothing() throws Exception {
        port = freePort();
        Map<String, String> env = env();
        CliHarness cli = new CliHarness(env, clock);
        String campaign = sendCampaign(cli);
        Map<String, Tags> tags = receivedTags();
        assertThat(tags).containsOnlyKeys(READERS);

        ListAppender<ILoggingEvent> log = capture();
        try (AppContext ctx = AppContext.load(Optional.empty(), env, clock);
             HttpEndpoint endpoint = HttpEndpoint.start(new Services(ctx, ProductionLinks::of), false, sns.fetcher())) {
            assertThat(endpoint.port()).contains(port);
            // SES: a permanent bounce for ann, delivered twice (SNS retries).
            String bounce = sns.notification("5a1b2c3d-0000-4000-8000-000000000001", sesBounce("Permanent", "General",
                    "ann@list.example", "5.1.1", "smtp; 550 5.1.1 <ann@list.example>... User unknown", tags.get("ann").ses(),
                    "<" + "c" + campaign + ">"), clock.instant(), 2);
            assertThat(postSes(bounce).statusCode()).isEqualTo(200);
            assertThat(postSes(bounce).statusCode()).isEqualTo(200);
            // Postmark: a soft bounce for bob.
            assertThat(postPostmark(basic(POSTMARK_USER, POSTMARK_PASSWORD), postmarkBounce(9001, "SoftBounce", 4096,
                    "bob@list.example", "smtp;452 4.2.2 Mailbox full", tags.get("bob").postmark())).statusCode()).isEqualTo(200);
            // SendGrid: a deferral for cid, a delivery for dee, a block for eve, in one batch.
            String batch = json(List.of(
                    sendgridEvent("deferred", "cid@list.example", "sg-1", tags.get("cid").sendgrid(),
                            Map.of("response", "451 4.7.1 Greylisted, try again", "attempt", "1")),
                    sendgridEvent("delivered", "dee@list.example", "sg-2", tags.get("dee").sendgrid(), Map.of("response", "250 OK")),
                    sendgridEvent("bounce", "eve@list.example", "sg-3", tags.get("eve").sendgrid(), Map.of("type", "blocked",
                            "status", "5.7.1", "reason", "554 5.7.1 Service unavailable; client host blocked using a block list"))));
            assertThat(postSendGrid(batch, clock.instant()).statusCode()).isEqualTo(200);
            // Mailgun: a permanent failure for fay.
            String token = "e0b5477167110d68991efc6b9f89f0a11066af27834600e1fa";
            assertThat(postMailgun(mailgun.body(mailgunEvent("mg-fay-1", "failed", "permanent", "bounce", "fay@list.example",
                    550, "5.1.1 The email account that you tried to reach does not exist", tags.get("fay").mailgun()),
                    clock.instant().getEpochSecond(), token)).statusCode()).isEqualTo(200);

            // Forged, tampered, stale and replayed requests about gus: each refused, none changes anything.
            Map<String, Object> gusFailed = mailgunEvent("mg-gus-1", "failed", "permanent", "bounce", "gus@list.example",
                    550, "5.1.1 no such user", tags.get("gus").mailgun());
            String gusSpam = json(List.of(sendgridEvent("spamreport", "gus@list.example", "sg-gus", tags.get("gus").sendgrid(), Map.of())));
            String gusHard = sesBounce("Permanent", "NoEmail", "gus@list.example", "5.1.1", null, tags.get("gus").ses(), null);
            String postmarkGus = postmarkBounce(9002, "HardBounce", 1, "gus@list.example", "550 5.1.1", tags.get("gus").postmark());
            List<HttpResponse<String>> refused = List.of(
                    postSes(SnsSigner.create().notification("5a1b2c3d-0000-4000-8000-0000000000f1", gusHard, clock.instant(), 2)),
                    postSes(sns.notification("5a1b2c3d-0000-4000-8000-0000000000f2", gusHard, clock.instant().minus(Duration.ofHours(2)), 2)),
                    postPostmark(basic(POSTMARK_USER, "a-guessed-password-0000000000"), postmarkGus),
                    postPostmark(null, postmarkGus),
                    postSendGrid(gusSpam, clock.instant(), "[{\"email\":\"gus@list.example\",\"event\":\"spamreport\"}]"),
                    postSendGrid(gusSpam, clock.instant().minus(Duration.ofMinutes(10))),
                    postMailgun(new MailgunSigner("key-ffffffffffffffffffffffffffffffff").body(gusFailed, clock.instant().getEpochSecond(), token + "1")),
                    postMailgun(mailgun.body(gusFailed, clock.instant().getEpochSecond() - 600, token + "2")),
                    postMailgun(mailgun.body(gusFailed, clock.instant().getEpochSecond(), token)));
            assertThat(refused).extracting(HttpResponse::statusCode).containsExactly(401, 400, 401, 401, 401, 400, 401, 400, 400);
            assertThat(refused.get(2).headers().firstValue("WWW-Authenticate")).contains("Basic realm=\"mailrun feedback\", charset=\"UTF-8\"");
            List<String> warnings = log.list.stream().filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
                    .map(ILoggingEvent::getFormattedMessage).toList();
            assertThat(warnings).as("one line per refused request").hasSize(refused.size())
                    .allSatisfy(w -> assertThat(w).contains("refused").doesNotContain(POSTMARK_PASSWORD).doesNotContain(MAILGUN_KEY));

            // The endpoint's other limits: webhooks take POST only, and at most 1 MiB.
            assertThat(http.send(HttpRequest.newBuilder(uri("/feedback/mailgun")).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(405);
            // Only the head of an oversized request: the server answers from its Content-Length alone.
            // (Sending the body too races the server's close after its answer: the client's socket may
            // be reset before it reads the 413.)
            assertThat(statusOfHeadOnly("/feedback/mailgun", 1024 * 1024 + 1)).isEqualTo(413);

            assertThat(suppressions()).containsExactlyInAnyOrder(
                    "ann@list.example hard_bounce ses:campaign=" + campaign + " status=5.1.1",
                    "fay@list.example hard_bounce mailgun:campaign=" + campaign + " status=5.1.1");
            assertThat(softBounces()).containsExactlyInAnyOrder("bob@list.example 1", "cid@list.example 1");
            JsonNode counts = status(cli, campaign).path("counts");
            assertThat(counts.path("sent").asInt()).isEqualTo(5);
            assertThat(counts.path("failed").asInt()).isEqualTo(3);
            assertThat(recipientStatus("eve@list.example")).isEqualTo("failed 554");
            assertThat(recipientStatus("gus@list.example")).isEqualTo("sent null");

            // The refused send goes out again (the block was lifted); complaints then pause the campaign.
            CliHarness.Result requeued = cli.run("campaign", "requeue-failed", campaign);
            assertThat(requeued.exitCode()).as(requeued.err()).isZero();
            assertThat(status(cli, campaign).path("campaign").path("status").asText()).isEqualTo("running");
            assertThat(postSes(sns.notification("5a1b2c3d-0000-4000-8000-000000000002",
                    sesComplaint("gus@list.example", "abuse", tags.get("gus").ses()), clock.instant(), 1)).statusCode()).isEqualTo(200);

            JsonNode paused = status(cli, campaign).path("campaign");
            assertThat(paused.path("status").asText()).isEqualTo("paused");
            assertThat(paused.path("pause_reason").asText()).isEqualTo("complaint rate 20.00% (1 complaints over 5 sends) exceeds 0.30%");
            assertThat(suppressions()).contains("gus@list.example complaint complaint:ses campaign=" + campaign);
        } finally {
            ((Logger) LoggerFactory.getLogger("dev.mailrun.http.endpoint.FeedbackHandler")).detachAppender(log);
        }
    }

    private String sendCampaign(CliHarness cli) throws Exception {
        CliHarness.Result created = cli.run("campaign", "create", "--name", "News", "--template", "newsletter",
                "--from", "news@sender.example");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();
        Path csv = dir.resolve("list.csv");
        Files.writeString(csv, "email,name,city\n" + READERS.stream().map(r -> r + "@list.example," + r + ",Oslo")
                .collect(Collectors.joining("\n")) + "\n");
        assertThat(cli.run("recipients", "import", "--campaign", id, csv.toString()).exitCode()).isZero();
        assertThat(cli.run("campaign", "start", id).exitCode()).isZero();
        CliHarness.Result tick = cli.run("tick");
        assertThat(tick.exitCode()).as(tick.err()).isZero();
        assertThat(greenMail.getReceivedMessages()).hasSize(READERS.size());
        return id;
    }

    private static Map<String, Tags> receivedTags() throws Exception {
        Map<String, Tags> byReader = new HashMap<>();
        for (MimeMessage m : greenMail.getReceivedMessages()) {
            String to = ((InternetAddress) m.getRecipients(Message.RecipientType.TO)[0]).getAddress();
            assertThat(header(m, "X-SES-CONFIGURATION-SET")).isEqualTo("mailrun");
            Map<String, String> ses = new HashMap<>();
            for (String pair : header(m, "X-SES-MESSAGE-TAGS").split(",\\s*")) {
                ses.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
            }
            Map<String, String> postmark = Map.of("mailrun-campaign", header(m, "X-PM-Metadata-mailrun-campaign"),
                    "mailrun-recipient", header(m, "X-PM-Metadata-mailrun-recipient"));
            Map<String, String> sendgrid = strings(JSON.readTree(header(m, "X-SMTPAPI")).path("unique_args"));
            Map<String, String> mailgun = strings(JSON.readTree(header(m, "X-Mailgun-Variables")));
            assertThat(List.of(postmark, sendgrid, mailgun)).as(to).allSatisfy(t -> assertThat(t).isEqualTo(ses));
            byReader.put(to.substring(0, to.indexOf('@')), new Tags(to, Long.parseLong(ses.get("mailrun-campaign")),
                    Long.parseLong(ses.get("mailrun-recipient")), ses, postmark, sendgrid, mailgun));
        }
        return byReader;
    }

    private static String header(MimeMessage m, String name) throws Exception {
        String value = m.getHeader(name, null);
        assertThat(value).as(name).isNotNull();
        return MimeUtility.unfold(value);
    }

    private static Map<String, String> strings(JsonNode object) {
        Map<String, String> m = new HashMap<>();
        object.properties().forEach(e -> m.put(e.getKey(), e.getValue().asText()));
        return m;
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private HttpResponse<String> post(String path, String body, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        headers.forEach(b::header);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> postSes(String snsMessage) throws Exception {
        return post("/feedback/ses", snsMessage, Map.of("Content-Type", "text/plain; charset=UTF-8",
                "x-amz-sns-message-type", JSON.readTree(snsMessage).path("Type").asText(), "x-amz-sns-topic-arn", SnsSigner.TOPIC));
    }

    private HttpResponse<String> postPostmark(String authorization, String body) throws Exception {
        return post("/feedback/postmark", body, authorization == null ? Map.of("Content-Type", "application/json")
                : Map.of("Content-Type", "application/json", "Authorization", authorization));
    }

    private HttpResponse<String> postSendGrid(String body, Instant signedAt) throws Exception {
        return postSendGrid(body, signedAt, body);
    }

    /** Signs {@code signedBody} and sends {@code body}: they differ for a body changed on the way. */
    private HttpResponse<String> postSendGrid(String signedBody, Instant signedAt, String body) throws Exception {
        String timestamp = Long.toString(signedAt.getEpochSecond());
        return post("/feedback/sendgrid", body, Map.of("Content-Type", "application/json",
                "X-Twilio-Email-Event-Webhook-Signature", sendgrid.sign(timestamp, signedBody.getBytes(StandardCharsets.UTF_8)),
                "X-Twilio-Email-Event-Webhook-Timestamp", timestamp));
    }

    /** The status code answering a POST whose head announces {@code length} bytes of body and sends none. */
    private int statusOfHeadOnly(String path, long length) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String statusLine = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII)).readLine();
            return Integer.parseInt(statusLine.split(" ")[1]);
        }
    }

    private HttpResponse<String> postMailgun(String body) throws Exception {
        return post("/feedback/mailgun", body, Map.of("Content-Type", "application/json"));
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode status(CliHarness cli, String campaign) throws Exception {
        CliHarness.Result r = cli.run("campaign", "status", campaign, "--json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        return JSON.readTree(r.out());
    }

    private static ListAppender<ILoggingEvent> capture() {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        ((Logger) LoggerFactory.getLogger("dev.mailrun.http.endpoint.FeedbackHandler")).addAppender(appender);
        return appender;
    }

    private static List<String> suppressions() throws Exception {
        return strings("SELECT CONCAT(address, ' ', reason, ' ', source) FROM suppression");
    }

    private static List<String> softBounces() throws Exception {
        return strings("SELECT CONCAT(address, ' ', bounces) FROM soft_bounce");
    }

    private static String recipientStatus(String email) throws Exception {
        return strings("SELECT CONCAT(status, ' ', COALESCE(last_code, 'null')) FROM recipient WHERE email = '" + email + "'").get(0);
    }

    private static List<String> strings(String sql) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            List<String> out = new java.util.ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
