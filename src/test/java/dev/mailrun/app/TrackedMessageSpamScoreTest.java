package dev.mailrun.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.app.cli.CliHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.SpamAssassin;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Tracking must not cost deliverability: two newsletters, a short one without images and a long one,
 * are each sent by a tick to GreenMail with DKIM, once by a campaign created with
 * {@code --track opens,clicks} and once by one without, and the delivered messages are scored by
 * SpamAssassin's local rules ({@code spamassassin -L -t}). Each tracked one stays at or below 1.0
 * (docs/TRACKING.md, "Deliverability"); a failure shows both scores and the rules that fired.
 * Skipped when the Debian package spamassassin is not installed.
 */
class TrackedMessageSpamScoreTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final String BASE = "https://t.sender.example";
    private static final String SHORT_SUBJECT = "Autumn at the shop";
    /** Under 3200 bytes and without an image: the open image is left out (docs/TRACKING.md, "Deliverability"). */
    private static final String HTML = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Autumn at the shop</title></head>
            <body>
            <h1>Autumn at the shop</h1>
            <p>Hello {{ name }},</p>
            <p>The autumn collection is in: warm jumpers, rain jackets and walking boots, made to last
            and repaired for free for as long as you own them.</p>
            <p><a href="https://shop.example/autumn?utm_source=newsletter&amp;utm_medium=email">See the autumn collection</a></p>
            <p>Our workshop in town is open again on Saturdays, where you can bring a jacket or a pair of
            boots in for repair and have a coffee while you wait. The details are on our website at
            <a href="https://shop.example/workshop">https://shop.example/workshop</a>.</p>
            <p>Thank you for reading,<br>Maria from the shop</p>
            <p>You receive this newsletter because you signed up at shop.example.
            <a href="{{ unsubscribe_url }}">Unsubscribe</a></p>
            </body></html>
            """;
    private static final String TEXT = """
            Hello {{ name }},

            The autumn collection is in: warm jumpers, rain jackets and walking boots, made to last
            and repaired for free for as long as you own them.

            See the autumn collection: https://shop.example/autumn?utm_source=newsletter&utm_medium=email

            Our workshop in town is open again on Saturdays, where you can bring a jacket or a pair of
            boots in for repair and have a coffee while you wait. The details are on our website at
            https://shop.example/workshop.

            Thank you for reading,
            Maria from the shop

            You receive this newsletter because you signed up at shop.example.
            Unsubscribe: {{ unsubscribe_url }}
            """;

    /** Over 3200 bytes: it carries the open image. */
    private static final String LONG_HTML = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>News from the workshop</title></head>
            <body>
            <h1>News from the workshop</h1>
            <p>Hello {{ name }},</p>
            <p>It has been a busy season in the workshop behind the shop. Since the spring we have mended
            more than four hundred jackets, resoled two hundred pairs of boots and patched more rucksacks
            than we care to count. Every one of them went back to its owner ready for another few years
            on the hills, and that is exactly why we started repairing things in the first place.</p>
            <h2>Saturday repair mornings</h2>
            <p>From next month the workshop opens its doors on Saturday mornings from nine until one.
            Bring a jacket with a broken zip, a pair of boots that let the water in or a tent with a torn
            seam, and one of us will look at it with you, tell you what it needs and how long it will
            take. Small jobs are often done while you wait, with a coffee from the kitchen next door.
            Everything you bought from us is repaired for free for as long as you own it; for anything
            else we charge for the parts only.</p>
            <p><a href="https://shop.example/workshop?utm_source=newsletter&amp;utm_medium=email">Read about the repair mornings</a></p>
            <h2>Caring for waxed cotton</h2>
            <p>Many of you asked how to look after a waxed jacket between two seasons. Brush off dried
            mud with a soft brush rather than washing it, let the jacket dry slowly away from the stove,
            and re-wax the seams and shoulders once a year with a little warmed wax worked in by hand.
            Hang it on a wide hanger in a cool place; folded in a drawer, the creases crack. Our short
            guide with photographs of each step is on the website at
            <a href="https://shop.example/guides/waxed-cotton">https://shop.example/guides/waxed-cotton</a>.</p>
            <h2>From the people who make our boots</h2>
            <p>In October we visited the small family workshop in the mountains that has made our walking
            boots for eleven years. Three generations work side by side there, and every pair is still
            stitched on machines older than most of the people using them. We wrote down what we saw and
            took a few photographs, which you can find in the journal on our website.</p>
            <p><a href="https://shop.example/journal/boot-makers">Visit the boot makers with us</a></p>
            <h2>Gift cards for the winter</h2>
            <p>Gift cards for the shop and the workshop are back, in any amount you like, printed on card
            made from the offcuts of our own canvas. They never expire, and they can pay for a repair as
            well as for something new. Ask for one at the counter or order it on the website, and we will
            post it in an envelope written by hand.</p>
            <h2>Dates for your diary</h2>
            <p>The shop is closed on the last Monday of the month for stocktaking. The winter walk with
            the local ramblers leaves from the market square on the first Sunday of December at ten;
            everybody is welcome, and the walk is about twelve kilometres with a stop for lunch at the
            inn by the river. If you would like to come, there is no need to book: wear good boots,
            bring a flask and something warm, and we will bring the maps.</p>
            <p>Thank you for reading, and for bringing your things back to us instead of throwing them
            away.<br>Maria and everyone at the shop</p>
            <p>You receive this newsletter because you signed up at shop.example.
            <a href="{{ unsubscribe_url }}">Unsubscribe</a></p>
            </body></html>
            """;
    private static final String LONG_TEXT = """
            Hello {{ name }},

            It has been a busy season in the workshop behind the shop. Saturday repair mornings start
            next month, from nine until one: https://shop.example/workshop

            How to care for waxed cotton: https://shop.example/guides/waxed-cotton
            The people who make our boots: https://shop.example/journal/boot-makers

            Thank you for reading,
            Maria and everyone at the shop

            You receive this newsletter because you signed up at shop.example.
            Unsubscribe: {{ unsubscribe_url }}
            """;

    @TempDir
    Path dir;

    @Test
    void tracked_messages_score_at_most_one_point_with_spamassassin_local_rules() throws Exception {
        Optional<SpamAssassin> spamAssassin = SpamAssassin.installed();
        Assumptions.assumeTrue(spamAssassin.isPresent(), "spamassassin is not installed: the spam score test is skipped");
        // The relay stamps its Received header with the real time, and a Date hours away from it is a rule
        // of its own; a slot's start minutes back is near the real time, and the tick has its whole slot to send.
        SettableClock clock = SettableClock.steppingAtSlotStart(WorkerEnv.TICK);
        CliHarness cli = new CliHarness(env(), clock);
        String shortTracked = create(cli, "short", "--track", "opens,clicks");
        create(cli, "short");
        create(cli, "long", "--track", "opens,clicks");
        create(cli, "long");
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        Logger runLog = (Logger) LoggerFactory.getLogger("dev.mailrun.campaign.send.TemplateForRun");
        logged.start();
        runLog.addAppender(logged);
        CliHarness.Result tick;
        try {
            tick = cli.run("tick");
        } finally {
            runLog.detachAppender(logged);
        }
        assertThat(tick.exitCode()).as(tick.err()).isZero();
        assertThat(logged.list).as("the run without the open image says so, once").singleElement()
                .extracting(ILoggingEvent::getFormattedMessage).asString()
                .startsWith("campaign " + shortTracked + ": this run's messages carry no open image: the HTML of template 'short'");
        MimeMessage[] received = greenMail.getReceivedMessages();
        assertThat(received).as(tick.out() + tick.err()).hasSize(4);

        Map<String, String> raw = new HashMap<>();
        for (MimeMessage m : received) {
            String message = GreenMailUtil.getWholeMessage(m);
            assertThat(message).contains("DKIM-Signature:");
            String template = m.getSubject().equals(SHORT_SUBJECT) ? "short" : "long";
            raw.put(template + (message.contains(BASE + "/c/") ? " tracked" : " untracked"), message);
        }
        assertThat(raw).containsOnlyKeys("short tracked", "short untracked", "long tracked", "long untracked");
        assertThat(raw.get("short untracked")).contains("https://shop.example/workshop\">https://shop.example/workshop</a>");
        assertThat(raw.get("long tracked")).as("a long HTML part carries the open image").contains(BASE + "/o/");
        assertThat(raw.get("short tracked")).as("a short one without an image of its own does not").doesNotContain(BASE + "/o/")
                .doesNotContain("<img");

        SpamAssassin sa = spamAssassin.get();
        for (String template : List.of("short", "long")) {
            SpamAssassin.Score tracked = sa.score(raw.get(template + " tracked"));
            if (tracked.score() > 1.0) {
                // Each spamassassin run loads its rules anew (seconds): the untracked message and the
                // version, which only explain a failure, are scored and asked for only then.
                SpamAssassin.Score untracked = sa.score(raw.get(template + " untracked"));
                fail("%s, local rules, %s message: tracked %s, over 1.0; the same message untracked %s", sa.version(), template,
                        tracked, untracked);
            }
        }
    }

    private String create(CliHarness cli, String template, String... track) throws Exception {
        List<String> args = new ArrayList<>(List.of("campaign", "create", "--name", template, "--template", template,
                "--from", "news@sender.example"));
        args.addAll(List.of(track));
        CliHarness.Result created = cli.run(args.toArray(String[]::new));
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();
        Path csv = dir.resolve("list-" + id + ".csv");
        Files.writeString(csv, "email,name\nann@list.example,Ann\n");
        CliHarness.Result imported = cli.run("recipients", "import", "--campaign", id, csv.toString());
        assertThat(imported.exitCode()).as(imported.err()).isZero();
        assertThat(cli.run("campaign", "start", id).exitCode()).isZero();
        return id;
    }

    private void template(String name, String subject, String html, String text) throws Exception {
        Path files = Files.createDirectories(dir.resolve("templates").resolve(name));
        Files.writeString(files.resolve("subject.txt"), subject + "\n");
        Files.writeString(files.resolve("body.txt"), text);
        Files.writeString(files.resolve("body.html"), html);
    }

    private Map<String, String> env() throws Exception {
        template("short", SHORT_SUBJECT, HTML, TEXT);
        template("long", "News from the workshop", LONG_HTML, LONG_TEXT);
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        Path pem = dir.resolve("dkim.pem");
        Files.writeString(pem, "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(generator.generateKeyPair().getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n");
        Map<String, String> env = WorkerEnv.of(db, greenMail.getSmtp().getPort());
        env.put("MAILRUN_TEMPLATES_DIR", dir.resolve("templates").toString());
        env.put("MAILRUN_HTTP_PORT", "8089");   // required by tracking; nothing listens: tick serves no HTTP
        env.put("MAILRUN_DKIM_DOMAIN", "sender.example");
        env.put("MAILRUN_DKIM_SELECTOR", "s1");
        env.put("MAILRUN_DKIM_PRIVATE_KEY_FILE", pem.toString());
        env.put("MAILRUN_TRACKING_ENABLED", "true");
        env.put("MAILRUN_TRACKING_BASE_URL", BASE);
        return env;
    }
}
