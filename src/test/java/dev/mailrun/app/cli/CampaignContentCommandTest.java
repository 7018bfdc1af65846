package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A campaign's content through the real command line and database: creation pins a stored version,
 * `campaign content` shows and moves it, `campaign clone` copies it, and a pinned version cannot be
 * deleted.
 */
class CampaignContentCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path templates;

    private final SettableClock clock = SettableClock.stepping(java.time.Instant.parse("2026-12-07T09:00:00Z"), Duration.ofSeconds(1));

    private CliHarness cli() {
        return new CliHarness(Map.of("MAILRUN_DB_URL", db.url(), "MAILRUN_DB_USER", db.user(), "MAILRUN_DB_PASSWORD", db.password(),
                "MAILRUN_TEMPLATES_DIR", templates.toString()), clock);
    }

    private void write(String name, String subject) throws Exception {
        Path dir = Files.createDirectories(templates.resolve(name));
        Files.writeString(dir.resolve("subject.txt"), subject + "\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("body.txt"), "Hello\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("body.html"), "<p>Hello</p>\n", StandardCharsets.UTF_8);
    }

    @Test
    void creation_pins_content_moves_only_explicitly_clones_keep_it_and_pinned_versions_stay() throws Exception {
        write("letter", "First");
        CliHarness.Result created = cli().run("campaign", "create", "--name", "Letter", "--template", "letter",
                "--from", "news@sender.example");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();
        assertThat(cli().run("campaign", "content", id).out()).contains("letter@1").contains("by campaign creation");

        write("letter", "Second");
        assertThat(cli().run("template", "import", "letter").out()).isEqualTo("template letter: stored version 2\n");
        CliHarness.Result moved = cli().run("campaign", "content", id, "--template", "letter", "--by", "editor");
        assertThat(moved.exitCode()).as(moved.err()).isZero();
        assertThat(moved.out()).isEqualTo("campaign " + id + " now sends letter@2\n");
        assertThat(cli().run("campaign", "content", id).out()).contains("letter@2 (was 1)  by editor");

        CliHarness.Result unknown = cli().run("campaign", "content", id, "--template", "letter", "--version", "7");
        assertThat(unknown.exitCode()).isEqualTo(Cli.USAGE);
        assertThat(unknown.err()).isEqualTo("mailrun: --version: template letter has no version 7\n");
        CliHarness.Result alone = cli().run("campaign", "content", id, "--version", "1");
        assertThat(alone.exitCode()).isEqualTo(Cli.USAGE);
        assertThat(alone.err()).contains("give --template too");

        CliHarness.Result clone = cli().run("campaign", "clone", id);
        assertThat(clone.exitCode()).as(clone.err()).isZero();
        String cloneId = clone.out().strip();
        assertThat(cloneId).isNotEqualTo(id);
        assertThat(cli().run("campaign", "content", cloneId).out()).contains("letter@2").contains("by clone of campaign " + id);
        assertThat(cli().run("campaign", "list").out()).contains("Letter (copy)");

        CliHarness.Result delete = cli().run("template", "delete", "letter", "--version", "1");
        assertThat(delete.exitCode()).isEqualTo(Cli.USAGE);
        assertThat(delete.err()).contains("version 1 of template letter is sent by campaign(s) " + id);
        CliHarness.Result noClone = cli().run("campaign", "clone", "999999");
        assertThat(noClone.exitCode()).isEqualTo(Cli.USAGE);
        assertThat(noClone.err()).isEqualTo("mailrun: no campaign with id 999999\n");
    }

    @Test
    void db_migrate_pins_a_campaign_created_before_templates_were_stored_to_the_text_on_disk() throws Exception {
        write("legacy", "Old text");
        String id = cli().run("campaign", "create", "--name", "Legacy", "--template", "legacy", "--from", "news@sender.example")
                .out().strip();
        // As a campaign of the release before stored templates: no pin, no record, nothing stored.
        try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password()); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE campaign SET template_version = NULL WHERE id = " + id);
            st.executeUpdate("DELETE FROM campaign_content_change WHERE campaign_id = " + id);
            st.executeUpdate("DELETE v FROM template_version v JOIN template t ON t.id = v.template_id WHERE t.name = 'legacy'");
            st.executeUpdate("DELETE FROM template WHERE name = 'legacy'");
        }
        write("legacy", "Text on disk at the upgrade");

        CliHarness.Result migrate = cli().run("db", "migrate");
        assertThat(migrate.exitCode()).as(migrate.err()).isZero();
        assertThat(migrate.out()).contains("Pinned 1 campaign(s) to their template's text in templates.dir")
                .contains("campaign " + id + ": legacy@1");
        assertThat(cli().run("template", "show", "legacy").out()).contains("Text on disk at the upgrade");
        assertThat(cli().run("campaign", "content", id).out()).contains("legacy@1  by upgrade");
        assertThat(cli().run("db", "migrate").out()).as("nothing left to pin").doesNotContain("Pinned");
    }
}
