package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code mailrun send-test} through the real command line, a real database and a real SMTP server. */
class SendTestCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));

    private CliHarness cli() {
        return new CliHarness(WorkerEnv.of(db, greenMail.getSmtp().getPort()), clock);
    }

    private String campaignWithTwoRecipients() throws Exception {
        CliHarness.Result created = cli().run("campaign", "create", "--name", "Autumn news", "--template", "newsletter",
                "--from", "news@sender.example", "--subject", "Autumn news");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();
        Path csv = Files.writeString(dir.resolve("list-" + id + ".csv"),
                "email,name\nann@list.example,Ann\nbob@list.example,Bob\n");
        CliHarness.Result imported = cli().run("recipients", "import", "--campaign", id, csv.toString());
        assertThat(imported.exitCode()).as(imported.err()).isZero();
        return id;
    }

    private JsonNode counts(String id) throws Exception {
        CliHarness.Result r = cli().run("campaign", "status", id, "--json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        return new ObjectMapper().readTree(r.out()).path("counts");
    }

    private MimeMessage sendTest(String id) throws Exception {
        int before = greenMail.getReceivedMessages().length;
        CliHarness.Result sent = cli().run("send-test", "--campaign", id, "--to", "tester@sender.example", "--name", "Tess");
        assertThat(sent.exitCode()).as(sent.err()).isZero();
        assertThat(sent.out()).startsWith("sent to tester@sender.example with Message-ID ");
        MimeMessage[] received = greenMail.getReceivedMessages();
        assertThat(received).hasSize(before + 1);
        return received[before];
    }

    @Test
    void a_draft_campaign_sends_a_test_marked_as_one_and_its_figures_stay_as_they_were() throws Exception {
        String id = campaignWithTwoRecipients();
        JsonNode before = counts(id);

        MimeMessage test = sendTest(id);

        assertThat(test.getSubject()).isEqualTo("[test] Autumn news");
        assertThat(test.getHeader("X-Mailrun-Test", ",")).isEqualTo("1");
        assertThat(test.getAllRecipients()[0].toString()).isEqualTo("Tess <tester@sender.example>");
        assertThat(counts(id)).isEqualTo(before);
        assertThat(before.path("total").asLong()).isEqualTo(2);
        assertThat(before.path("sent").asLong()).isZero();
    }

    @Test
    void a_running_campaign_sends_a_test_that_counts_toward_nothing_and_the_run_still_sends_everyone() throws Exception {
        String id = campaignWithTwoRecipients();
        CliHarness.Result started = cli().run("campaign", "start", id);
        assertThat(started.exitCode()).as(started.err()).isZero();
        JsonNode before = counts(id);

        MimeMessage test = sendTest(id);

        assertThat(test.getSubject()).isEqualTo("[test] Autumn news");
        assertThat(test.getHeader("X-Mailrun-Test", ",")).isEqualTo("1");
        assertThat(counts(id)).isEqualTo(before);

        CliHarness.Result tick = cli().run("tick");
        assertThat(tick.exitCode()).as(tick.err()).isZero();
        JsonNode after = counts(id);
        assertThat(after.path("sent").asLong()).as("the test is not one of them").isEqualTo(2);
        assertThat(after.path("total").asLong()).isEqualTo(2);
        MimeMessage[] received = greenMail.getReceivedMessages();
        assertThat(received).hasSize(3);
        assertThat(received[1].getSubject()).isEqualTo("Autumn news");
        assertThat(received[1].getHeader("X-Mailrun-Test")).isNull();
    }
}
