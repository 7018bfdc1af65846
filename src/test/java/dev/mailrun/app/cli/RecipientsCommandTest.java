package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code mailrun recipients import} through the real command line, against the real database. */
class RecipientsCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));

    @BeforeEach
    void templates() throws Exception {
        Path t = Files.createDirectories(dir.resolve("templates").resolve("needs-city"));
        Files.writeString(t.resolve("subject.txt"), "News for {{ name | default(\"you\") }}");
        Files.writeString(t.resolve("body.txt"), "Hello from {{ city }}.\n{{ unsubscribe_url }}\n");
        Files.writeString(t.resolve("body.html"), "<p>Hello from {{ city }}.</p><a href=\"{{ unsubscribe_url }}\">unsubscribe</a>");
    }

    private CliHarness cli() {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        env.put("MAILRUN_TEMPLATES_DIR", dir.resolve("templates").toString());
        return new CliHarness(env, clock);
    }

    private String campaign(String status) throws Exception {
        CliHarness.Result created = cli().run("campaign", "create", "--name", "News", "--template", "needs-city",
                "--from", "news@sender.example");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("UPDATE campaign SET status = ? WHERE id = ?")) {
            ps.setString(1, status);
            ps.setLong(2, Long.parseLong(id));
            ps.executeUpdate();
        }
        return id;
    }

    private long recipients(String campaignId) throws Exception {
        return CampaignFixtures.recipientCount(db.dataSource(), Long.parseLong(campaignId));
    }

    private Path csv(String content) throws Exception {
        Path f = Files.createTempFile(dir, "list", ".csv");
        Files.writeString(f, content);
        return f;
    }

    @Test
    void a_file_of_one_row_is_read_as_one_row_not_one_rows() throws Exception {
        String id = campaign("draft");
        CliHarness.Result r = cli().run("recipients", "import", "--campaign", id, csv("email,city\nann@example.com,Oslo\n").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("read 1 row: imported 1, rejected 0\n");
    }

    @Test
    void a_disposable_or_role_address_is_rejected_with_a_detail_that_says_what_matched_not_the_reason_again() throws Exception {
        String id = campaign("draft");
        Path f = csv("email,city\nsomeone@mailinator.com,Oslo\npostmaster@example.com,Oslo\nann@example.com,Oslo\n");
        Map<String, String> env = new HashMap<>(Map.of("MAILRUN_DB_URL", db.url(), "MAILRUN_DB_USER", db.user(),
                "MAILRUN_DB_PASSWORD", db.password(), "MAILRUN_TEMPLATES_DIR", dir.resolve("templates").toString(),
                "MAILRUN_IMPORT_REJECT_DISPOSABLE", "true", "MAILRUN_IMPORT_REJECT_ROLE", "true"));

        CliHarness.Result r = new CliHarness(env, clock).run("recipients", "import", "--campaign", id, f.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains(
                "  line 2: someone@mailinator.com - disposable domain (domain mailinator.com is on the disposable-mail list)",
                "  line 3: postmaster@example.com - role address (local part postmaster names a role, not a person)");
    }

    @Test
    void an_import_into_a_completed_or_cancelled_campaign_exits_2_with_one_line_and_imports_nothing() throws Exception {
        Path f = csv("email,city\na@example.com,Oslo\n");
        for (String status : new String[] {"completed", "cancelled"}) {
            String id = campaign(status);
            CliHarness.Result r = cli().run("recipients", "import", "--campaign", id, f.toString());
            assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
            assertThat(r.err().lines()).containsExactly("mailrun: campaign " + id + " is " + status
                    + "; it sends nothing more, so imported recipients would stay pending (create a new campaign)");
            assertThat(recipients(id)).isZero();
        }
    }

    @Test
    void a_file_without_a_field_the_template_needs_exits_2_whatever_the_campaign_state() throws Exception {
        Path f = csv("email,town\na@example.com,Oslo\n");
        for (String status : new String[] {"draft", "running", "paused"}) {
            String id = campaign(status);
            CliHarness.Result r = cli().run("recipients", "import", "--campaign", id, f.toString());
            assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
            assertThat(r.err().lines()).hasSize(1).first().asString()
                    .startsWith("mailrun: " + f + ": template needs-city needs a field this file has no column for: "
                            + "needs-city/body.txt:1:15: unknown field 'city'")
                    .endsWith("(2 problem(s); run: mailrun template check needs-city --fields town)");
            assertThat(recipients(id)).isZero();
        }
        String running = campaign("running");
        CliHarness.Result noSuchColumn = cli().run("recipients", "import", "--campaign", running, "--attachment-column", "ticket",
                f.toString());
        assertThat(noSuchColumn.exitCode()).as(noSuchColumn.err()).isEqualTo(2);
        assertThat(noSuchColumn.err().lines()).containsExactly("mailrun: --attachment-column 'ticket': no such column in the header row of " + f);
        assertThat(recipients(running)).isZero();
        CliHarness.Result ok = cli().run("recipients", "import", "--campaign", running, csv("email,city\na@example.com,Oslo\n").toString());
        assertThat(ok.exitCode()).as(ok.err()).isZero();
        assertThat(recipients(running)).isEqualTo(1);
    }

    @Test
    void an_unknown_campaign_exits_2() throws Exception {
        CliHarness.Result r = cli().run("recipients", "import", "--campaign", "999999", csv("email,city\na@example.com,Oslo\n").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().lines()).containsExactly("mailrun: no campaign with id 999999");
    }

    @Test
    void an_import_that_stops_part_way_prints_what_was_committed_and_exits_1_with_one_line() throws Exception {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(full), "needs /dev/full");
        String id = campaign("draft");
        StringBuilder content = new StringBuilder("email,city\n");
        for (int i = 0; i < 20_000; i++) {
            content.append(i % 2 == 0 ? "r" + i + "@example.org" : "not-an-address-" + i).append(",Oslo\n");
        }
        CliHarness.Result r = cli().run("recipients", "import", "--campaign", id, csv(content.toString()).toString(),
                "--rejects", full.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        long committed = recipients(id);
        assertThat(r.out()).startsWith("stopped after reading ").contains(": imported " + committed + ", rejected ");
        assertThat(r.err().lines()).hasSize(1).first().asString()
                .startsWith("mailrun: import stopped after ")
                .contains(", " + committed + " of them imported: No space left on device; run the same import again to finish it");
    }

    @Test
    void a_rejected_huge_or_hostile_value_is_shown_cut_and_escaped_and_kept_whole_in_the_rejects_file() throws Exception {
        String id = campaign("draft");
        String huge = "h".repeat(1024 * 1024) + "@example.com";
        Path rejects = dir.resolve("rejects.csv");
        CliHarness.Result r = cli().run("recipients", "import", "--campaign", id,
                csv("email,city\n" + huge + ",Oslo\n\"evil\u001b[2J\r\nx@example.com\",Oslo\n").toString(),
                "--rejects", rejects.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().lines()).allSatisfy(l -> assertThat(l.length()).isLessThan(500))
                .contains("  line 2: " + "h".repeat(200) + "… (1048588 bytes) - too large (field 'email' holds 1048588 bytes, "
                                + "more than the 65536 allowed (import.max-field-bytes))",
                        "  line 3: evil\\u001B[2J\\r\\nx@example.com - invalid syntax (control character in address)");
        assertThat(Files.readString(rejects)).contains("2," + huge + ",too large,");
    }

    @Test
    void a_rejects_file_that_cannot_be_created_exits_2_before_importing_anything() throws Exception {
        String id = campaign("draft");
        Path nowhere = dir.resolve("no-such-dir").resolve("rejects.csv");
        CliHarness.Result r = cli().run("recipients", "import", "--campaign", id, csv("email,city\na@example.com,Oslo\n").toString(),
                "--rejects", nowhere.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().lines()).containsExactly("mailrun: " + nowhere + ": cannot write the rejects file (NoSuchFileException: "
                + nowhere + ")");
        assertThat(recipients(id)).isZero();
    }
}
