package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code mailrun segments …} through the real command line and the real database. */
class SegmentCommandsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.at("2026-12-01T10:00:00Z");

    @BeforeEach
    void empty() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM segment");
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
        }
    }

    private CliHarness.Result run(String... args) {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        return new CliHarness(env, clock).run(args);
    }

    private CliHarness.Result ok(String... args) {
        CliHarness.Result r = run(args);
        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        return r;
    }

    private CliHarness.Result refused(String... args) {
        CliHarness.Result r = run(args);
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(Cli.USAGE);
        assertThat(r.err().lines()).as("one line").hasSize(1);
        return r;
    }

    @Test
    void segments_are_created_listed_with_counts_shown_with_a_preview_and_deleted() throws Exception {
        ok("lists", "create", "customers");
        ok("subscribers", "add", "ann@example.com", "--name", "Ann", "--attr", "plan=pro", "--list", "customers");
        ok("subscribers", "add", "bob@example.com", "--attr", "plan=pro");
        ok("subscribers", "add", "cat@example.com", "--attr", "plan=free", "--list", "customers");
        Path file = dir.resolve("pros.json");
        Files.writeString(file, "{\"attr\": \"plan\", \"eq\": \"pro\"}", StandardCharsets.UTF_8);

        assertThat(ok("segments", "create", "pros", "--filter", "@" + file).out()).isEqualTo("created segment pros: 2 subscribers now\n");
        assertThat(ok("segments", "create", "customers", "--filter", "{\"list\":\"customers\"}").out())
                .isEqualTo("created segment customers: 2 subscribers now\n");
        String listed = ok("segments", "list").out();
        assertThat(listed.lines().toList()).hasSize(3);
        assertThat(listed.lines().skip(1).findFirst().orElseThrow()).matches("customers +2  \\{\"list\":\"customers\"}");
        assertThat(listed.lines().skip(2).findFirst().orElseThrow()).matches("pros +2  \\{\"attr\":\"plan\",\"eq\":\"pro\"}");

        String shown = ok("segments", "show", "PROS", "--preview", "1").out();
        assertThat(shown).contains("segment:  pros\n", "matches:  2 subscribers\n").contains("ann@example.com").doesNotContain("bob@");
        assertThat(ok("segments", "count", "--filter", "{\"not\":{\"attr\":\"plan\",\"eq\":\"pro\"}}").out()).isEqualTo("1\n");
        assertThat(ok("segments", "delete", "pros").out()).isEqualTo("deleted segment pros\n");
        assertThat(refused("segments", "show", "pros").err()).isEqualTo("mailrun: NAME: no segment named 'pros'\n");
    }

    @Test
    void a_bad_filter_is_one_line_naming_each_bad_part_by_its_path() {
        assertThat(refused("segments", "create", "s", "--filter", "{\"and\":[{\"attr\":\"\",\"eq\":1},{\"list\":\"nope\"}]}").err())
                .isEqualTo("mailrun: --filter and[0].attr: a name must not be blank\n");
        assertThat(refused("segments", "count", "--filter", "{\"list\":\"nope\"}").err()).isEqualTo("mailrun: --filter list: no list named 'nope'\n");
        assertThat(refused("segments", "count", "--filter", "@" + dir.resolve("missing.json")).err()).startsWith("mailrun: --filter: cannot read ");
        assertThat(refused("segments", "show", "x", "--preview", "0").err()).isEqualTo("mailrun: NAME: no segment named 'x'\n");
        assertThat(ok("segments", "list").out()).startsWith("no segments");
    }
}
