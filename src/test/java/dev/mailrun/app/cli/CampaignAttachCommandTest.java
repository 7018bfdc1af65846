package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** campaign create --attach through the real command line: stored, listed by status, limits refused with one line. */
class CampaignAttachCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private CliHarness cli(String... envPairs) {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        for (int i = 0; i < envPairs.length; i += 2) {
            env.put(envPairs[i], envPairs[i + 1]);
        }
        return new CliHarness(env, SettableClock.at("2026-11-21T10:00:00Z"));
    }

    private static String[] create(String... attach) {
        String[] base = {"campaign", "create", "--name", "Files", "--template", "newsletter", "--from", "news@sender.example"};
        String[] args = new String[base.length + attach.length * 2];
        System.arraycopy(base, 0, args, 0, base.length);
        for (int i = 0; i < attach.length; i++) {
            args[base.length + 2 * i] = "--attach";
            args[base.length + 2 * i + 1] = attach[i];
        }
        return args;
    }

    @Test
    void attached_files_are_stored_at_create_and_named_by_status_even_after_the_file_is_gone() throws Exception {
        Path pdf = Files.write(dir.resolve("ticket.pdf"), "%PDF-1.4\n%%EOF\n".getBytes());
        Path notes = Files.writeString(dir.resolve("notes"), "plain words\n");

        CliHarness.Result created = cli().run(create(pdf.toString(), notes.toString()));
        assertThat(created.exitCode()).as(created.err()).isZero();
        Files.delete(pdf);

        assertThat(cli().run("campaign", "status", created.out().strip()).out())
                .contains("  attachments: ticket.pdf (application/pdf, 15 bytes), notes (text/plain, 12 bytes)");
    }

    @Test
    void a_file_over_a_limit_is_refused_at_create_with_one_line_naming_it_and_the_limit() throws Exception {
        Path big = Files.write(dir.resolve("big.pdf"), new byte[2048]);
        Path other = Files.write(dir.resolve("other.pdf"), new byte[1500]);

        CliHarness.Result each = cli("MAILRUN_CONTENT_MAX_ATTACHMENT_BYTES", "2000").run(create(big.toString()));
        assertThat(each.exitCode()).isEqualTo(2);
        assertThat(each.err().strip()).isEqualTo("mailrun: --attach " + big + ": 2048 bytes, over content.max-attachment-bytes (2000)");

        CliHarness.Result together = cli("MAILRUN_CONTENT_MAX_MESSAGE_BYTES", "3000", "MAILRUN_CONTENT_MAX_ATTACHMENT_BYTES", "2048").run(create(big.toString(), other.toString()));
        assertThat(together.exitCode()).isEqualTo(2);
        assertThat(together.err().strip())
                .isEqualTo("mailrun: --attach other.pdf: the files together reach 3548 bytes, over content.max-message-bytes (3000)");

        CliHarness.Result missing = cli().run(create(dir.resolve("nope.pdf").toString()));
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err().strip()).isEqualTo("mailrun: --attach " + dir.resolve("nope.pdf") + ": no such file");
        assertThat(cli().run("campaign", "list").out()).doesNotContain("Files");
    }
}
