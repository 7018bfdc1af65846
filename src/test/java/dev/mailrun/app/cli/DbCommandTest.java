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

class DbCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private CliHarness cli() {
        return new CliHarness(Map.of("MAILRUN_DB_URL", db.url(), "MAILRUN_DB_USER", db.user(),
                "MAILRUN_DB_PASSWORD", db.password()), Clock.systemUTC());
    }

    @Test
    void migrate_on_a_current_schema_is_a_no_op() {
        CliHarness.Result r = cli().run("db", "migrate");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).startsWith("Schema already current at version");
    }

    @Test
    void a_nonsense_database_url_exits_2_with_one_line() {
        CliHarness.Result r = new CliHarness(Map.of("MAILRUN_DB_URL", "nonsense"), Clock.systemUTC()).run("db", "migrate");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().lines()).containsExactly("mailrun: configuration key db.url: must start with jdbc:mysql://, got 'nonsense'");
    }

    @Test
    void an_unknown_key_in_the_properties_file_exits_2_with_one_line() throws Exception {
        Path f = dir.resolve("m.properties");
        Files.writeString(f, "smtp.hots=relay\n");
        CliHarness.Result r = new CliHarness(Map.of(), Clock.systemUTC()).run("--config", f.toString(), "db", "migrate");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().lines()).hasSize(1).first().asString().contains("unknown configuration key smtp.hots");
    }

    @Test
    void an_unreachable_database_is_a_runtime_failure_in_one_line_without_the_password() {
        CliHarness.Result r = new CliHarness(Map.of("MAILRUN_DB_URL", "jdbc:mysql://127.0.0.1:1/nothing",
                "MAILRUN_DB_PASSWORD", "s3cr3t-pw"), Clock.systemUTC()).run("db", "migrate");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err().lines()).hasSize(1);
        assertThat(r.err()).startsWith("mailrun: cannot connect to the database").doesNotContain("s3cr3t-pw");
    }

    @Test
    void an_unknown_option_is_a_usage_error() {
        CliHarness.Result r = cli().run("db", "migrate", "--bogus");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("Unknown option: '--bogus'");
    }

    @Test
    void help_never_prints_secret_values() {
        CliHarness.Result r = new CliHarness(Map.of("MAILRUN_DB_PASSWORD", "s3cr3t-pw"), Clock.systemUTC()).run("--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("db").doesNotContain("s3cr3t-pw");
    }
}
