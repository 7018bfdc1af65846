package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A small demo, run as a newcomer runs it: what it says must lead to what it wrote. */
class DemoCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    @Test
    void the_summary_names_the_rejects_file_where_it_is() throws Exception {
        Path demoDir = dir.resolve("demo");
        CliHarness.Result r = new CliHarness(Map.of("MAILRUN_DB_URL", db.url(), "MAILRUN_DB_USER", db.user(),
                "MAILRUN_DB_PASSWORD", db.password()), Clock.systemUTC())
                .run("demo", "--size", "20", "--rate", "1000", "--interval", "3", "--dir", demoDir.toString());

        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        Path rejects = demoDir.resolve("demo-rejects.csv");
        assertThat(r.out()).contains("(invalid addresses, listed in " + rejects + ")");
        assertThat(rejects).exists();
        assertThat(Files.readAllLines(rejects)).hasSizeGreaterThan(1);
    }
}
