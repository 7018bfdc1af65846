package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import jakarta.mail.Message;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeUtility;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mailto of List-Unsubscribe, end to end: a campaign sent through the real command line carries
 * {@code mailto:unsubscribe@<From domain>}, the request a mail client sends for it arrives in the
 * bounce mailbox (GreenMail, IMAP), and the next tick's bounce task suppresses the address.
 */
class UnsubscribeByMailEndToEndTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));

    private static final Pattern LIST_UNSUBSCRIBE = Pattern.compile(
            "<(https://unsubscribe\\.sender\\.example/u/[A-Za-z0-9_-]+)>(?:, <mailto:([^?>]+)\\?subject=([^>]+)>)?");

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));

    private Map<String, String> env(boolean withMailbox) {
        Map<String, String> env = WorkerEnv.of(db, greenMail.getSmtp().getPort());
        env.put("MAILRUN_UNSUBSCRIBE_BASE_URL", "https://unsubscribe.sender.example/u/");
        if (withMailbox) {
            env.put("MAILRUN_BOUNCE_IMAP_HOST", "127.0.0.1");
            env.put("MAILRUN_BOUNCE_IMAP_PORT", Integer.toString(greenMail.getImap().getPort()));
            env.put("MAILRUN_BOUNCE_IMAP_TLS", "false");
            env.put("MAILRUN_BOUNCE_IMAP_USER", "bounces");
            env.put("MAILRUN_BOUNCE_IMAP_PASSWORD", "pw");
            env.put("MAILRUN_BOUNCE_INTERVAL", "10m");
        }
        return env;
    }

    @Test
    void a_request_sent_to_the_mailto_of_a_sent_message_unsubscribes_its_recipient_at_the_next_tick() throws Exception {
        // The From domain's MX delivers unsubscribe@ to the bounce mailbox.
        greenMail.setUser("unsubscribe@sender.example", "bounces", "pw");
        CliHarness cli = new CliHarness(env(true), clock);
        MimeMessage sent = sendOneMessage(cli, "ann@list.example");

        Matcher header = listUnsubscribe(sent);
        assertThat(header.group(2)).isEqualTo("unsubscribe@sender.example");
        assertThat(header.group(3)).startsWith("unsubscribe-");
        // What a mail client sends for the mailto.
        GreenMailUtil.sendTextEmail(header.group(2), "ann@list.example", header.group(3),
                "This message was automatically generated to unsubscribe.", greenMail.getSmtp().getServerSetup());
        assertThat(suppression("ann@list.example")).isNull();

        clock.advance(Duration.ofMinutes(10));
        CliHarness.Result tick = cli.run("tick");

        assertThat(tick.exitCode()).as(tick.err()).isZero();
        assertThat(tick.out()).contains("bounces: succeeded");
        assertThat(suppression("ann@list.example")).startsWith("unsubscribed unsubscribe:campaign=");
    }

    @Test
    void without_a_mailbox_that_is_read_list_unsubscribe_carries_the_one_click_url_alone() throws Exception {
        MimeMessage sent = sendOneMessage(new CliHarness(env(false), clock), "bob@list.example");

        Matcher header = listUnsubscribe(sent);
        assertThat(header.group(2)).isNull();
        assertThat(sent.getHeader("List-Unsubscribe-Post", null)).isEqualTo("List-Unsubscribe=One-Click");
    }

    @Test
    void an_explicit_mailto_that_no_mailbox_reads_is_refused_at_start_in_one_line() {
        Map<String, String> env = env(false);
        env.put("MAILRUN_UNSUBSCRIBE_MAILTO", "unsubscribe@sender.example");

        CliHarness.Result r = new CliHarness(env, clock).run("campaign", "list");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().lines()).singleElement().asString()
                .startsWith("mailrun: configuration key unsubscribe.mailto: is set but no mailbox reads");
    }

    /** Creates, fills and starts a campaign of one recipient from news@sender.example, and ticks once. */
    private MimeMessage sendOneMessage(CliHarness cli, String recipient) throws Exception {
        CliHarness.Result created = cli.run("campaign", "create", "--name", "News", "--template", "newsletter",
                "--from", "news@sender.example");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();
        Path csv = dir.resolve("list.csv");
        Files.writeString(csv, "email,name,city\n" + recipient + ",Reader,Oslo\n");
        assertThat(cli.run("recipients", "import", "--campaign", id, csv.toString()).exitCode()).isZero();
        assertThat(cli.run("campaign", "start", id).exitCode()).isZero();
        CliHarness.Result tick = cli.run("tick");
        assertThat(tick.exitCode()).as(tick.err()).isZero();
        return Arrays.stream(greenMail.getReceivedMessages())
                .filter(m -> to(m).equals(recipient))
                .findFirst().orElseThrow(() -> new AssertionError("nothing sent to " + recipient + ": " + tick.out()));
    }

    private static Matcher listUnsubscribe(MimeMessage m) throws Exception {
        String value = MimeUtility.unfold(m.getHeader("List-Unsubscribe", null));
        Matcher matcher = LIST_UNSUBSCRIBE.matcher(value);
        assertThat(matcher.matches()).as(value).isTrue();
        return matcher;
    }

    private static String to(MimeMessage m) {
        try {
            return ((InternetAddress) m.getRecipients(Message.RecipientType.TO)[0]).getAddress();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String suppression(String address) throws Exception {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT CONCAT(reason, ' ', source) FROM suppression WHERE address = ?")) {
            ps.setString(1, address);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
