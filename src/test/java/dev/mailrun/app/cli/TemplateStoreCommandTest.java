package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stored templates through the real command line and database: import stores a version only
 * when the text compiles and differs; list, versions, show, diff and export read them back.
 */
class TemplateStoreCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path templates;

    @TempDir
    Path exported;

    private final SettableClock clock = SettableClock.stepping(java.time.Instant.parse("2026-12-07T09:00:00Z"), Duration.ofSeconds(1));

    private CliHarness cli() {
        return new CliHarness(Map.of("MAILRUN_DB_URL", db.url(), "MAILRUN_DB_USER", db.user(), "MAILRUN_DB_PASSWORD", db.password(),
                "MAILRUN_TEMPLATES_DIR", templates.toString()), clock);
    }

    private void write(String name, String subject, String text, String html) throws Exception {
        Path dir = templates.resolve(name);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("subject.txt"), subject, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("body.txt"), text, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("body.html"), html, StandardCharsets.UTF_8);
    }

    @Test
    void an_import_stores_a_version_only_when_the_text_differs_and_each_version_reads_back_as_saved() throws Exception {
        write("weekly", "Week {{ week }}\n", "Hello {{ name }}\nLine two\n", "<p>Hello {{ name }}</p>\n");
        write("promo", "Sale\n", "Buy\n", "<p>Buy</p>\n");

        CliHarness.Result first = cli().run("template", "import");
        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.out()).contains("template promo: stored version 1 (new template)")
                .contains("template weekly: stored version 1 (new template)");
        assertThat(cli().run("template", "import", "weekly").out()).isEqualTo("template weekly: unchanged (version 1)\n");

        write("weekly", "Week {{ week }}\n", "Hello {{ name }}\nLine 2\n", "<p>Hello {{ name }}</p>\n");
        assertThat(cli().run("template", "import", "weekly").out()).isEqualTo("template weekly: stored version 2\n");
        assertThat(versions("weekly")).isEqualTo(2);

        assertThat(cli().run("template", "list").out()).contains("promo").containsPattern("weekly +2 ");
        String listed = cli().run("template", "versions", "weekly").out();
        assertThat(listed.lines().skip(1).map(l -> l.split(" +")[0]).toList()).containsExactly("2", "1");
        assertThat(listed).contains("cli:" + System.getProperty("user.name")).contains("Week {{ week }}");

        assertThat(cli().run("template", "show", "weekly", "--version", "1").out())
                .contains("template weekly version 1").contains("--- body.txt\nHello {{ name }}\nLine two\n");
        String diff = cli().run("template", "diff", "weekly", "1", "2").out();
        assertThat(diff).contains("--- weekly/body.txt@1").contains("+++ weekly/body.txt@2").contains("-Line two").contains("+Line 2")
                .doesNotContain("subject.txt@");
        assertThat(cli().run("template", "diff", "weekly", "2", "2").out()).isEmpty();

        CliHarness.Result export = cli().run("template", "export", "weekly", exported.toString(), "--version", "1");
        assertThat(export.exitCode()).as(export.err()).isZero();
        assertThat(Files.readString(exported.resolve("weekly/body.txt"))).isEqualTo("Hello {{ name }}\nLine two\n");
        CliHarness.Result again = cli().run("template", "export", "weekly", exported.toString());
        assertThat(again.exitCode()).isEqualTo(Cli.USAGE);
        assertThat(again.err()).contains("exists").contains("weekly");
    }

    @Test
    void a_template_that_does_not_compile_is_not_stored_and_every_problem_is_named_with_its_part_and_position() throws Exception {
        write("broken", "Hi {{ name\n", "Text {% if %}\n", "<p>ok</p>\n");

        CliHarness.Result result = cli().run("template", "import", "broken");

        assertThat(result.exitCode()).isEqualTo(Cli.RUNTIME_FAILURE);
        assertThat(result.out()).containsPattern("broken/subject\\.txt:1:\\d+: ").containsPattern("broken/body\\.txt:1:\\d+: ")
                .contains("template broken: not stored, 2 problem(s)");
        assertThat(versions("broken")).isZero();

        Files.delete(templates.resolve("broken/body.html"));
        write("halfway", "Hi\n", "Text\n", "<p>x</p>\n");
        Files.delete(templates.resolve("halfway/body.html"));
        CliHarness.Result missing = cli().run("template", "import", "halfway");
        assertThat(missing.out()).contains("halfway/body.html: missing file");
        assertThat(versions("halfway")).isZero();

        CliHarness.Result unknown = cli().run("template", "versions", "nothing-stored");
        assertThat(unknown.exitCode()).isEqualTo(Cli.RUNTIME_FAILURE);
        assertThat(unknown.err()).contains("no stored template named nothing-stored");
        assertThat(cli().run("template", "show", "nothing-stored", "--version", "3").err())
                .contains("template nothing-stored has no version 3");
    }

    private static int versions(String name) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT COUNT(*) FROM template_version v JOIN template t ON t.id = v.template_id WHERE t.name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
