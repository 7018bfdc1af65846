package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A campaign's web version setting through the real command line and database: given at creation
 * ({@code --web-version}), shown and changed on a draft ({@code campaign web-version}), copied by a
 * clone, followed from webversion.personal without one; a bad value is one line naming its field (exit 2),
 * and a campaign past its draft keeps its setting.
 */
class CampaignWebVersionCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path templates;

    private final SettableClock clock = SettableClock.stepping(java.time.Instant.parse("2026-12-07T09:00:00Z"), Duration.ofSeconds(1));

    private CliHarness cli(boolean personal) throws Exception {
        Path dir = Files.createDirectories(templates.resolve("letter"));
        Files.writeString(dir.resolve("subject.txt"), "Letter\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("body.txt"), "Hello\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("body.html"), "<p>Hello</p>\n", StandardCharsets.UTF_8);
        Map<String, String> env = new HashMap<>(Map.of("MAILRUN_DB_URL", db.url(), "MAILRUN_DB_USER", db.user(),
                "MAILRUN_DB_PASSWORD", db.password(), "MAILRUN_TEMPLATES_DIR", templates.toString()));
        env.put("MAILRUN_WEBVERSION_PERSONAL", Boolean.toString(personal));
        return new CliHarness(env, clock);
    }

    private String create(CliHarness cli, String... more) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("campaign", "create", "--name", "Letter",
                "--template", "letter", "--from", "news@sender.example"));
        args.addAll(java.util.List.of(more));
        CliHarness.Result created = cli.run(args.toArray(String[]::new));
        assertThat(created.exitCode()).as(created.err()).isZero();
        return created.out().strip();
    }

    @Test
    void the_setting_is_given_at_creation_changed_on_a_draft_copied_by_a_clone_and_followed_from_the_key_without_one()
            throws Exception {
        CliHarness cli = cli(true);
        String anonymous = create(cli, "--web-version", "anonymous");
        assertThat(cli.run("campaign", "web-version", anonymous).out()).isEqualTo("campaign " + anonymous + ": web version anonymous\n");
        String plain = create(cli);
        assertThat(cli.run("campaign", "web-version", plain).out())
                .isEqualTo("campaign " + plain + ": web version personal (webversion.personal)\n");
        assertThat(cli(false).run("campaign", "web-version", plain).out()).as("read from the key when asked")
                .isEqualTo("campaign " + plain + ": web version anonymous (webversion.personal)\n");

        CliHarness.Result set = cli.run("campaign", "web-version", plain, "anonymous");
        assertThat(set.exitCode()).as(set.err()).isZero();
        assertThat(set.out()).isEqualTo("campaign " + plain + ": web version anonymous\n");
        assertThat(cli.run("campaign", "web-version", plain).out()).isEqualTo("campaign " + plain + ": web version anonymous\n");
        assertThat(cli(false).run("campaign", "web-version", anonymous, "personal").exitCode()).isZero();
        assertThat(cli(false).run("campaign", "web-version", anonymous).out()).as("its own setting wins over the key")
                .isEqualTo("campaign " + anonymous + ": web version personal\n");

        String clone = cli.run("campaign", "clone", plain).out().strip();
        assertThat(cli.run("campaign", "web-version", clone).out()).isEqualTo("campaign " + clone + ": web version anonymous\n");
    }

    @Test
    void a_bad_value_is_one_line_naming_its_field_and_a_campaign_past_its_draft_keeps_its_setting() throws Exception {
        CliHarness cli = cli(true);
        CliHarness.Result bad = cli.run("campaign", "create", "--name", "Letter", "--template", "letter",
                "--from", "news@sender.example", "--web-version", "public");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).isEqualTo("mailrun: --web-version: must be personal or anonymous, got 'public'\n");
        assertThat(cli.run("campaign", "list").out()).doesNotContain("Letter");

        String id = create(cli);
        CliHarness.Result badMode = cli.run("campaign", "web-version", id, "Public");
        assertThat(badMode.exitCode()).isEqualTo(2);
        assertThat(badMode.err()).isEqualTo("mailrun: MODE must be personal or anonymous, got 'Public'\n");
        assertThat(cli.run("campaign", "cancel", id).exitCode()).isZero();
        CliHarness.Result late = cli.run("campaign", "web-version", id, "anonymous");
        assertThat(late.exitCode()).isEqualTo(2);
        assertThat(late.err()).isEqualTo("mailrun: campaign " + id + " is cancelled; its web version changes only while it is a "
                + "draft or scheduled\n");
        assertThat(cli.run("campaign", "web-version", id).out()).isEqualTo("campaign " + id + ": web version personal (webversion.personal)\n");
        assertThat(cli.run("campaign", "web-version", "999999", "anonymous").err()).isEqualTo("mailrun: no campaign with id 999999\n");
    }
}
