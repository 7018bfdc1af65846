package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * campaign create without --from through the real command line: the template's template.properties
 * gives the sender (address, display name, reply-to), as the message a real SMTP server receives shows;
 * with no from anywhere, or a display name that decodes to a line break, nothing is created.
 */
class CampaignFromTemplateCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));

    private CliHarness cli() throws IOException {
        Path templates = dir.resolve("templates");
        template(templates, "branded", "from = \"News\" <news@x.example>\nreply-to = replies@x.example\n");
        template(templates, "bare", null);
        template(templates, "encoded", "from = \"=?UTF-8?Q?News=0D=0ABcc:_victim@evil.example?=\" <news@x.example>\n");
        Map<String, String> env = WorkerEnv.of(db, greenMail.getSmtp().getPort());
        env.put("MAILRUN_TEMPLATES_DIR", templates.toString());
        return new CliHarness(env, clock);
    }

    /** The shipped newsletter's three files, with {@code properties} as its template.properties (null: none). */
    private static void template(Path templates, String name, String properties) throws IOException {
        Path to = Files.createDirectories(templates.resolve(name));
        for (String file : new String[] {"subject.txt", "body.txt", "body.html"}) {
            Files.copy(Path.of("templates", "newsletter", file), to.resolve(file), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        if (properties != null) {
            Files.writeString(to.resolve("template.properties"), properties);
        }
    }

    @Test
    void a_campaign_created_without_from_sends_from_the_templates_address_with_its_display_name_and_reply_to() throws Exception {
        CliHarness.Result created = cli().run("campaign", "create", "--name", "Template sender", "--template", "branded");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();

        CliHarness.Result sent = cli().run("send-test", "--campaign", id, "--to", "tester@sender.example", "--name", "Tess");
        assertThat(sent.exitCode()).as(sent.err()).isZero();

        MimeMessage[] received = greenMail.getReceivedMessages();
        MimeMessage message = received[received.length - 1];
        assertThat(message.getHeader("From", ",")).isEqualTo("News <news@x.example>");
        assertThat(message.getHeader("Reply-To", ",")).isEqualTo("replies@x.example");
        assertThat(stored(id)).isEqualTo("news@x.example|News|replies@x.example");
    }

    @Test
    void the_operators_own_display_name_and_reply_to_win_over_the_templates() throws Exception {
        CliHarness.Result created = cli().run("campaign", "create", "--name", "Own name", "--template", "branded",
                "--from-name", "Own Name", "--reply-to", "own@x.example");
        assertThat(created.exitCode()).as(created.err()).isZero();

        assertThat(stored(created.out().strip())).isEqualTo("news@x.example|Own Name|own@x.example");
    }

    @Test
    void a_campaign_with_no_from_given_and_none_in_its_template_exits_2_naming_from_and_is_not_created() throws Exception {
        long before = campaigns();

        CliHarness.Result r = cli().run("campaign", "create", "--name", "No sender", "--template", "bare");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines()).containsExactly("mailrun: --from: the template has no from; give one");
        assertThat(campaigns()).isEqualTo(before);
    }

    @Test
    void a_template_display_name_that_decodes_to_a_line_break_is_refused_and_nothing_is_created() throws Exception {
        long before = campaigns();

        CliHarness.Result r = cli().run("campaign", "create", "--name", "Encoded", "--template", "encoded");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("U+000D");
        assertThat(campaigns()).isEqualTo(before);
    }

    private static String stored(String id) throws Exception {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT from_address, from_name, reply_to FROM campaign WHERE id = ?")) {
            ps.setLong(1, Long.parseLong(id));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3);
            }
        }
    }

    private static long campaigns() throws Exception {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM campaign");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
