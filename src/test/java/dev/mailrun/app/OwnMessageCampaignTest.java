package dev.mailrun.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.app.cli.CliHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.SpamAssassin;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import jakarta.mail.BodyPart;
import jakarta.mail.Multipart;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A campaign's own message end to end: `campaign create --layout --body week.md --subject` places a
 * Markdown body into a layout, stores it as the template named after the campaign, and a tick sends a
 * multipart/alternative message whose HTML part is the rendered Markdown and whose text part is read
 * out of it, links listed, merge tags filled; SpamAssassin's local rules score it at most 1.0 (skipped
 * with one line where spamassassin is absent). Bad input is refused with one line per field, nothing
 * stored. `campaign message` writes a draft's own message after its creation, and `--show` prints it as
 * it was written.
 */
class OwnMessageCampaignTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final String LAYOUT_HTML = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>The shop's weekly</title></head>
            <body>
            {{ content }}
            <p>You receive this newsletter because you signed up at shop.example.
            <a href="{{ unsubscribe_url }}">Unsubscribe</a></p>
            </body></html>
            """;
    private static final String LAYOUT_TEXT = """
            {{ content }}

            You receive this newsletter because you signed up at shop.example.
            Unsubscribe: {{ unsubscribe_url }}
            """;
    private static final String BODY = """
            ## Repairs this week

            Hello {{ name | default("there") }},

            The workshop mended **forty jackets** this week. Saturday mornings are open for repairs from
            nine until one, and small jobs are often done while you wait with a coffee from next door.

            - Broken zips replaced while you wait
            - Boots resoled in a week

            Read [the repair guide](https://shop.example/guides/repairs) before you come, or visit
            https://shop.example/workshop for the opening times.

            Thank you for reading,
            Maria from the shop
            """;

    @TempDir
    Path dir;

    @Test
    void a_markdown_message_in_a_layout_is_sent_as_html_and_readable_text_and_scores_low() throws Exception {
        SettableClock clock = SettableClock.steppingAtSlotStart(WorkerEnv.TICK);
        CliHarness cli = new CliHarness(env(), clock);
        Path body = Files.writeString(dir.resolve("week.md"), BODY);

        CliHarness.Result created = cli.run("campaign", "create", "--name", "Weekly 49", "--layout", "frame", "--body",
                body.toString(), "--subject", "Repairs this week, {{ name | default(\"friends\") }}", "--from", "news@sender.example");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();
        assertThat(cli.run("campaign", "content", id).out()).as("stored as the template named after the campaign")
                .contains("weekly-49@1");
        Path csv = Files.writeString(dir.resolve("list.csv"), "email,name\nann@list.example,Ann\n");
        assertThat(cli.run("recipients", "import", "--campaign", id, csv.toString()).exitCode()).isZero();
        assertThat(cli.run("campaign", "start", id).exitCode()).isZero();
        CliHarness.Result tick = cli.run("tick");
        assertThat(tick.exitCode()).as(tick.err()).isZero();

        MimeMessage[] received = greenMail.getReceivedMessages();
        assertThat(received).hasSize(1);
        MimeMessage m = received[0];
        assertThat(m.getSubject()).isEqualTo("Repairs this week, Ann");
        assertThat(m.getContentType()).startsWith("multipart/alternative");
        Multipart parts = (Multipart) m.getContent();
        String text = null;
        String html = null;
        for (int i = 0; i < parts.getCount(); i++) {
            BodyPart part = parts.getBodyPart(i);
            if (part.isMimeType("text/plain")) {
                text = (String) part.getContent();
            } else if (part.isMimeType("text/html")) {
                html = (String) part.getContent();
            }
        }
        assertThat(html).contains("<h2>Repairs this week</h2>").contains("<p>Hello Ann,</p>")
                .contains("<strong>forty jackets</strong>").contains("<li>Broken zips replaced while you wait</li>")
                .contains("<a href=\"https://shop.example/guides/repairs\">the repair guide</a>")
                .contains("You receive this newsletter").doesNotContain("{{").doesNotContain("&quot;");
        assertThat(text).contains("Repairs this week").contains("Hello Ann,").contains("- Boots resoled in a week")
                .contains("the repair guide [1]").contains("Links:").contains("[1] https://shop.example/guides/repairs")
                .contains("Unsubscribe: https://").doesNotContain("<").doesNotContain("{{");

        Optional<SpamAssassin> spamAssassin = SpamAssassin.installed();
        if (spamAssassin.isEmpty()) {
            System.out.println("spamassassin is not installed: the own message's spam score is not checked");
            return;
        }
        SpamAssassin.Score score = spamAssassin.get().score(GreenMailUtil.getWholeMessage(m));
        assertThat(score.score()).as("SpamAssassin local rules: %s", score).isLessThanOrEqualTo(1.0);
    }

    @Test
    void a_bad_message_is_refused_field_by_field_and_nothing_is_stored() throws Exception {
        CliHarness cli = new CliHarness(env(), SettableClock.steppingAtSlotStart(WorkerEnv.TICK));
        Path body = Files.writeString(dir.resolve("broken.md"), "Hello {{ name\n");
        CliHarness.Result refused = cli.run("campaign", "create", "--name", "Broken one", "--layout", "nolayout", "--body",
                body.toString(), "--subject", "Hi", "--from", "news@sender.example");
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err().lines()).anySatisfy(l -> assertThat(l).startsWith("mailrun: --layout: "))
                .anySatisfy(l -> assertThat(l).startsWith("mailrun: --body: broken-one/body:2:1: "));
        assertThat(cli.run("template", "list").out()).doesNotContain("broken-one");

        CliHarness.Result both = cli.run("campaign", "create", "--name", "X", "--template", "frame", "--layout", "frame",
                "--body", body.toString(), "--subject", "Hi", "--from", "news@sender.example");
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err()).contains("give --template, or --layout with --body");
    }

    @Test
    void campaign_message_writes_a_drafts_own_message_and_names_a_field_its_recipients_lack() throws Exception {
        CliHarness cli = new CliHarness(env(), SettableClock.steppingAtSlotStart(WorkerEnv.TICK));
        CliHarness.Result created = cli.run("campaign", "create", "--name", "Weekly 52", "--template", "frame", "--from",
                "news@sender.example");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();
        // The layout sent as it is needs a content field: the import brings it, not a company.
        Path csv = Files.writeString(dir.resolve("list.csv"), "email,name,content\nann@list.example,Ann,-\n");
        CliHarness.Result imported = cli.run("recipients", "import", "--campaign", id, csv.toString());
        assertThat(imported.exitCode()).as(imported.err()).isZero();

        Path lacking = Files.writeString(dir.resolve("lacking.md"), "Hello {{ company }}\n");
        CliHarness.Result refused = cli.run("campaign", "message", id, "--layout", "frame", "--body", lacking.toString(),
                "--subject", "Week 52");
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err().lines()).allSatisfy(l -> assertThat(l).startsWith("mailrun: --body: weekly-52/body."))
                .anySatisfy(l -> assertThat(l).contains("unknown field 'company': recipients do not have it"));
        assertThat(cli.run("template", "list").out()).doesNotContain("weekly-52");

        Path body = Files.writeString(dir.resolve("week52.md"), BODY);
        CliHarness.Result written = cli.run("campaign", "message", id, "--layout", "frame", "--body", body.toString(),
                "--subject", "Week 52", "--by", "maria");
        assertThat(written.exitCode()).as(written.err()).isZero();
        assertThat(written.out()).isEqualTo("campaign " + id + " now sends its own message, weekly-52@1\n");
        assertThat(cli.run("campaign", "content", id).out()).contains("weekly-52@1 (was 1)  by maria");

        CliHarness.Result shown = cli.run("campaign", "message", id, "--show");
        assertThat(shown.exitCode()).as(shown.err()).isZero();
        assertThat(shown.out()).isEqualTo("campaign " + id + " sends its own message, weekly-52@1: layout frame, markdown\n"
                + "--- subject\nWeek 52\n--- body\n" + BODY);
        CliHarness.Result mixed = cli.run("campaign", "message", id, "--show", "--subject", "Other");
        assertThat(mixed.exitCode()).isEqualTo(2);
        assertThat(mixed.err()).contains("--show prints the message; give it alone");
        String plain = cli.run("campaign", "create", "--name", "Plain", "--template", "frame", "--from", "news@sender.example")
                .out().strip();
        CliHarness.Result none = cli.run("campaign", "message", plain, "--show");
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err()).isEqualTo("mailrun: campaign " + plain + " sends no message of its own\n");
    }

    private Map<String, String> env() throws Exception {
        Path frame = Files.createDirectories(dir.resolve("templates").resolve("frame"));
        Files.writeString(frame.resolve("subject.txt"), "The shop's weekly\n");
        Files.writeString(frame.resolve("body.txt"), LAYOUT_TEXT);
        Files.writeString(frame.resolve("body.html"), LAYOUT_HTML);
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        Path pem = dir.resolve("dkim.pem");
        Files.writeString(pem, "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(generator.generateKeyPair().getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n");
        Map<String, String> env = WorkerEnv.of(db, greenMail.getSmtp().getPort());
        env.put("MAILRUN_TEMPLATES_DIR", dir.resolve("templates").toString());
        env.put("MAILRUN_DKIM_DOMAIN", "sender.example");
        env.put("MAILRUN_DKIM_SELECTOR", "s1");
        env.put("MAILRUN_DKIM_PRIVATE_KEY_FILE", pem.toString());
        return env;
    }
}
