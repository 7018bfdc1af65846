package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The real command line, in-process, against the real database and a real SMTP server. */
class CliEndToEndTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));

    private Map<String, String> env() {
        Map<String, String> env = WorkerEnv.of(db, greenMail.getSmtp().getPort());
        return env;
    }

    private CliHarness cli() {
        return new CliHarness(env(), clock);
    }

    @Test
    void create_import_start_tick_until_complete_then_status_json_shows_everything_sent_and_each_run_counts_each_recipient_once()
            throws Exception {
        CliHarness.Result created = cli().run("campaign", "create", "--name", "Autumn news", "--template", "newsletter",
                "--from", "news@sender.example", "--from-name", "Sender News");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();
        assertThat(id).matches("\\d+");

        Path csv = dir.resolve("list.csv");
        try (BufferedWriter w = Files.newBufferedWriter(csv)) {
            w.write("email,name,city\n");
            for (int i = 0; i < 305; i++) {
                w.write("reader" + i + "@list.example,Reader " + i + ",Oslo\n");
            }
            w.write("not-an-address,Broken,Oslo\n");
        }
        Path rejects = dir.resolve("rejects.csv");
        CliHarness.Result imported = cli().run("recipients", "import", "--campaign", id, csv.toString(), "--rejects", rejects.toString());
        assertThat(imported.exitCode()).as(imported.err()).isZero();
        assertThat(imported.out()).contains("read 306 rows: imported 305, rejected 1").contains("line 307: not-an-address");
        assertThat(Files.readAllLines(rejects)).hasSize(2);
        // Five of them are suppressed before the start: the runs skip them at claim.
        Path suppress = dir.resolve("suppress.csv");
        Files.writeString(suppress, "email\nreader300@list.example\nreader301@list.example\nreader302@list.example\n"
                + "reader303@list.example\nreader304@list.example\n");
        CliHarness.Result suppressed = cli().run("suppressions", "import", suppress.toString());
        assertThat(suppressed.exitCode()).as(suppressed.err()).isZero();

        CliHarness.Result started = cli().run("campaign", "start", id);
        assertThat(started.exitCode()).as(started.err()).isZero();

        for (int i = 0; i < 5; i++) {
            CliHarness.Result tick = cli().run("tick");
            assertThat(tick.exitCode()).as(tick.err()).isZero();
            if (statusJson(id).path("campaign").path("status").asText().equals("completed")) {
                break;
            }
            clock.advance(Duration.ofMinutes(10));
        }
        JsonNode status = statusJson(id);
        assertThat(status.path("campaign").path("status").asText()).isEqualTo("completed");
        assertThat(status.path("counts").path("sent").asLong()).isEqualTo(300);
        assertThat(status.path("counts").path("suppressed").asLong()).isEqualTo(5);
        assertThat(status.path("counts").path("total").asLong()).isEqualTo(305);
        assertThat(status.path("runs").size()).isGreaterThanOrEqualTo(1);
        assertThat(status.path("runs").get(0).has("utilisation")).isTrue();
        assertThat(greenMail.getReceivedMessages()).hasSize(300);
        // Each run counts each recipient it took once, by what became of it; its items are what it tried.
        long sentByRuns = 0;
        long suppressedByRuns = 0;
        for (JsonNode run : status.path("runs")) {
            assertThat(run.path("items").asLong()).as(run.toString())
                    .isEqualTo(run.path("sent").asLong() + run.path("failed").asLong() + run.path("deferred").asLong());
            assertThat(run.path("handed_back").isIntegralNumber()).as(run.toString()).isTrue();
            sentByRuns += run.path("sent").asLong();
            suppressedByRuns += run.path("suppressed").asLong();
        }
        assertThat(sentByRuns).isEqualTo(300);
        assertThat(suppressedByRuns).isEqualTo(5);

        CliHarness.Result text = cli().run("campaign", "status", id);
        assertThat(text.out()).contains("completed").contains("sent 300");
        CliHarness.Result nothing = cli().run("tick");
        assertThat(nothing.exitCode()).isZero();
    }

    private JsonNode statusJson(String id) throws Exception {
        CliHarness.Result r = cli().run("campaign", "status", id, "--json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        return new ObjectMapper().readTree(r.out());
    }

    @Test
    void operator_mistakes_exit_2_with_one_line() {
        CliHarness.Result unknown = cli().run("campaign", "start", "999999");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err().lines()).containsExactly("mailrun: no campaign with id 999999");

        CliHarness.Result missing = cli().run("campaign", "create", "--template", "newsletter", "--from", "a@b.example");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("Missing required option: '--name=N'");

        CliHarness.Result badFrom = cli().run("campaign", "create", "--name", "x", "--template", "newsletter", "--from", "nobody");
        assertThat(badFrom.exitCode()).isEqualTo(2);
        assertThat(badFrom.err().lines()).hasSize(1).first().asString().contains("--from: address 'nobody' is not valid");

        CliHarness.Result noTemplate = cli().run("campaign", "create", "--name", "x", "--template", "nope", "--from", "a@b.example");
        assertThat(noTemplate.exitCode()).isEqualTo(2);
        assertThat(noTemplate.err().lines()).hasSize(1).first().asString().contains("--template: nope cannot be used");

        CliHarness.Result notCsv = cli().run("recipients", "import", "--campaign", "1", dir.resolve("missing.csv").toString());
        assertThat(notCsv.exitCode()).isEqualTo(2);

        CliHarness.Result noCampaign = cli().run("recipients", "import", "--campaign", "999999",
                Path.of("pom.xml").toString());
        assertThat(noCampaign.exitCode()).isEqualTo(2);
        assertThat(noCampaign.err().lines()).containsExactly("mailrun: no campaign with id 999999");
    }

    @Test
    void create_refuses_a_header_value_the_sender_would_refuse_with_exit_2_and_one_line_naming_the_option() {
        String[][] cases = {
                {"--subject", "Hi\nBcc: victim@evil.example", "the control character U+000A (line feed)"},
                {"--from-name", "News\u0085Bcc: victim@evil.example", "the control character U+0085 (next line)"},
                {"--name", "Autumn\u2028news", "the line separator U+2028"},
                {"--reply-to", "help@sender.example\r", "the control character U+000D (carriage return)"},
                {"--subject", "bell\u0007", "the control character U+0007"}};
        for (String[] c : cases) {
            List<String> args = new ArrayList<>(List.of("campaign", "create", "--name", "Autumn news", "--template", "newsletter",
                    "--from", "news@sender.example"));
            int at = args.indexOf(c[0]);
            if (at >= 0) {
                args.set(at + 1, c[1]);
            } else {
                args.addAll(List.of(c[0], c[1]));
            }

            CliHarness.Result r = cli().run(args.toArray(String[]::new));

            assertThat(r.exitCode()).as(c[0]).isEqualTo(2);
            assertThat(r.err().lines()).as(c[0])
                    .containsExactly("mailrun: " + c[0] + ": contains " + c[2] + ", which is not allowed in a header");
        }
    }

    @Test
    void a_tab_and_text_shaped_like_an_encoded_word_are_accepted_and_reach_the_recipient_as_written() throws Exception {
        CliHarness.Result created = cli().run("campaign", "create", "--name", "Autumn\tnews", "--template", "welcome",
                "--from", "news@sender.example", "--from-name", "=?UTF-8?Q?Your_bank?=", "--subject", "Hello\tthere");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();
        Path csv = dir.resolve("one.csv");
        Files.writeString(csv, "email,name\nreader@list.example,=?utf-8?b?SGFjaw==?=\n");
        assertThat(cli().run("recipients", "import", "--campaign", id, csv.toString()).exitCode()).isZero();
        assertThat(cli().run("campaign", "start", id).exitCode()).isZero();

        for (int i = 0; i < 5 && greenMail.getReceivedMessages().length == 0; i++) {
            assertThat(cli().run("tick").exitCode()).isZero();
            clock.advance(Duration.ofMinutes(10));
        }

        assertThat(greenMail.getReceivedMessages()).hasSize(1);
        MimeMessage received = greenMail.getReceivedMessages()[0];
        assertThat(received.getSubject()).isEqualTo("Hello\tthere");
        assertThat(((InternetAddress) received.getFrom()[0]).getPersonal()).isEqualTo("=?UTF-8?Q?Your_bank?=");
        assertThat(((InternetAddress) received.getRecipients(MimeMessage.RecipientType.TO)[0]).getPersonal())
                .isEqualTo("=?utf-8?b?SGFjaw==?=");
    }

    @Test
    void start_refuses_a_stored_campaign_whose_header_value_the_sender_would_refuse_and_leaves_it_a_draft() throws Exception {
        CliHarness.Result created = cli().run("campaign", "create", "--name", "Stored earlier", "--template", "welcome",
                "--from", "news@sender.example", "--subject", "Hello");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();
        Path csv = dir.resolve("one.csv");
        Files.writeString(csv, "email,name\nreader@list.example,Reader\n");
        assertThat(cli().run("recipients", "import", "--campaign", id, csv.toString()).exitCode()).isZero();
        // As a campaign created before the rule covered C1 controls would have been stored.
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("UPDATE campaign SET subject_override = ? WHERE id = ?")) {
            ps.setString(1, "Hello\u0085Bcc: victim@evil.example");
            ps.setLong(2, Long.parseLong(id));
            ps.executeUpdate();
        }

        CliHarness.Result started = cli().run("campaign", "start", id);

        assertThat(started.exitCode()).isEqualTo(2);
        assertThat(started.err().lines()).containsExactly("mailrun: campaign " + id + " cannot start: subject: contains "
                + "the control character U+0085 (next line), which is not allowed in a header");
        assertThat(statusJson(id).path("campaign").path("status").asText()).isEqualTo("draft");
    }

    @Test
    void bad_configuration_exits_2_with_one_line_naming_the_key() {
        Map<String, String> env = env();
        env.put("MAILRUN_SMTP_PORT", "lots");
        CliHarness.Result r = new CliHarness(env, clock).run("campaign", "list");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().lines()).containsExactly("mailrun: configuration key smtp.port: must be a whole number, got 'lots'");

        env = env();
        env.put("MAILRUN_UNSUBSCRIBE_SECRET", "short");
        r = new CliHarness(env, clock).run("campaign", "list");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("unsubscribe.secret").doesNotContain("short'");
    }

    @Test
    void values_that_overflow_or_make_no_sense_exit_2_with_one_line_naming_the_key_or_option() {
        for (String[] setting : new String[][] {{"MAILRUN_TICK_INTERVAL", "99999999999999999d", "tick.interval"},
                {"MAILRUN_TICK_INTERVAL", "9223372036854775807ms", "tick.interval"},
                {"MAILRUN_HTTP_BIND", "999.1.1.1", "http.bind"}}) {
            Map<String, String> env = env();
            env.put(setting[0], setting[1]);
            CliHarness.Result r = new CliHarness(env, clock).run("campaign", "list");
            assertThat(r.exitCode()).as(setting[1]).isEqualTo(2);
            assertThat(r.err().lines()).as(setting[1]).singleElement().asString()
                    .startsWith("mailrun: configuration key " + setting[2] + ": ").contains(setting[1]);
        }

        CliHarness.Result tinyRate = cli().run("campaign", "create", "--name", "x", "--template", "newsletter",
                "--from", "a@b.example", "--rate", "1e-300");
        assertThat(tinyRate.exitCode()).isEqualTo(2);
        assertThat(tinyRate.err().lines())
                .containsExactly("mailrun: --rate: must be 0.01–100000 messages per second, got 1.0E-300");

        CliHarness.Result farFuture = cli().run("campaign", "create", "--name", "x", "--template", "newsletter",
                "--from", "a@b.example", "--start-at", "+999999999-12-31T23:59:59Z");
        assertThat(farFuture.exitCode()).isEqualTo(2);
        assertThat(farFuture.err().lines()).containsExactly("mailrun: --start-at: must be from 1970-01-01T00:00:00Z and "
                + "before 9999-01-01T00:00:00Z, got '+999999999-12-31T23:59:59Z'");
    }

    @Test
    void template_check_reports_file_line_and_column_and_exits_1_on_problems() throws Exception {
        Path templates = dir.resolve("templates");
        Files.createDirectories(templates.resolve("broken"));
        Files.writeString(templates.resolve("broken/subject.txt"), "Hello {{ name }}\n");
        Files.writeString(templates.resolve("broken/body.txt"), "Hi {{ nickname }}\nUnsubscribe: {{ unsubscribe_url }}\n");
        Files.writeString(templates.resolve("broken/body.html"), "<p>{% if %}</p>\n");
        Map<String, String> env = env();
        env.put("MAILRUN_TEMPLATES_DIR", templates.toString());
        CliHarness.Result r = new CliHarness(env, clock).run("template", "check", "broken");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).contains("body.txt:1:").contains("nickname").contains("body.html:1:");

        CliHarness.Result ok = cli().run("template", "check", "welcome");
        assertThat(ok.exitCode()).as(ok.out()).isZero();
    }

    @Test
    void template_check_lists_only_the_columns_a_recipient_must_bring_in_name_order_every_time() throws Exception {
        Path templates = dir.resolve("templates");
        Files.createDirectories(templates.resolve("fields"));
        Files.writeString(templates.resolve("fields/subject.txt"), "{{ campaign }}: news for {{ zone }}\n");
        Files.writeString(templates.resolve("fields/body.txt"), "{% if name %}Hi {{ name }}{% endif %} ({{ email }})\n"
                + "{{ city }} {{ account }} {{ tier }} {{ beta }}\n{{ unsubscribe_url }}\n");
        Files.writeString(templates.resolve("fields/body.html"), "<p>{{ city }} {{ account }}</p><a href=\"{{ unsubscribe_url }}\">x</a>\n");
        Map<String, String> env = env();
        env.put("MAILRUN_TEMPLATES_DIR", templates.toString());

        CliHarness.Result r = new CliHarness(env, clock).run("template", "check", "fields", "--fields", "zone,city,account,tier,beta");

        assertThat(r.exitCode()).as(r.out()).isZero();
        assertThat(r.out()).isEqualTo("template fields: OK; columns every recipient needs (used without a default):"
                + " account, beta, city, tier, zone\n");
    }
}
