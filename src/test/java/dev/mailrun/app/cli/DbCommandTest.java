package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.db.Migrations;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class DbCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestDatabase old = TestDatabase.atVersion("1");

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
    void status_and_migrate_say_the_schema_version_in_words_a_newcomer_reads_once() {
        Map<String, String> env = Map.of("MAILRUN_DB_URL", old.url(), "MAILRUN_DB_USER", old.user(),
                "MAILRUN_DB_PASSWORD", old.password());
        String latest = new Migrations(db.dataSource()).status().latest();

        CliHarness.Result before = new CliHarness(env, Clock.systemUTC()).run("db", "status");
        assertThat(before.out()).contains("schema: version 1 (latest version " + latest + ", ");

        CliHarness.Result migrate = new CliHarness(env, Clock.systemUTC()).run("db", "migrate");
        assertThat(migrate.exitCode()).as(migrate.err()).isZero();
        assertThat(migrate.out()).matches("Migrated the schema from version 1 to version " + latest + ": applied \\d+ migrations, "
                + "versions 2 to " + latest + "(; there is no version [\\d, ]+)? \\(.*\\)\\.\\n");

        assertThat(new Migrations.SchemaStatus(Migrations.SchemaStatus.EMPTY, latest, 15).describeCurrent()).isEqualTo("no schema yet");
        assertThat(new Migrations.SchemaNotCurrentException(new Migrations.SchemaStatus(Migrations.SchemaStatus.EMPTY, "16", 15)))
                .hasMessage("the database has no schema yet but mailrun needs version 16 (15 pending migration(s)); run: mailrun db migrate");
    }

    @Test
    void migrate_from_an_empty_database_says_the_versions_it_applied_and_which_do_not_exist() throws Exception {
        String empty = db.url().substring(db.url().lastIndexOf('/') + 1) + "_empty";
        sql("DROP DATABASE IF EXISTS " + empty);
        sql("CREATE DATABASE " + empty + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
        try {
            List<String> files;
            try (var listing = Files.list(Path.of("sql"))) {
                files = listing.map(p -> p.getFileName().toString()).toList();
            }
            List<Integer> versions = files.stream().map(f -> Integer.parseInt(f.substring(1, f.indexOf("__")))).sorted().toList();
            int latest = versions.get(versions.size() - 1);
            List<String> missing = IntStream.rangeClosed(1, latest).filter(v -> !versions.contains(v)).mapToObj(String::valueOf).toList();

            CliHarness.Result r = new CliHarness(Map.of("MAILRUN_DB_URL", db.url() + "_empty", "MAILRUN_DB_USER", db.user(),
                    "MAILRUN_DB_PASSWORD", db.password()), Clock.systemUTC()).run("db", "migrate");

            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.out()).startsWith("Migrated the schema from no schema to version " + latest + ": applied " + files.size()
                    + " migrations, versions 1 to " + latest + (missing.isEmpty() ? " (" : "; there is no version "
                    + String.join(", ", missing) + " ("));
        } finally {
            sql("DROP DATABASE IF EXISTS " + empty);
        }
    }

    private static void sql(String statement) throws SQLException {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    @Test
    void a_nonsense_database_url_exits_2_with_one_line() {
        CliHarness.Result r = new CliHarness(Map.of("MAILRUN_DB_URL", "nonsense"), Clock.systemUTC()).run("db", "migrate");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().lines()).containsExactly("mailrun: configuration key db.url: must start with jdbc:mysql:// (or jdbc:mysql:replication://, jdbc:mysql:loadbalance://, jdbc:mysql+srv://), got 'nonsense'");
    }

    @Test
    void an_unknown_key_in_the_properties_file_exits_2_with_one_line() throws Exception {
        Path f = dir.resolve("m.properties");
        Files.writeString(f, "smtp.hots=relay\n");
        CliHarness.Result r = new CliHarness(Map.of(), Clock.systemUTC()).run("--config", f.toString(), "db", "migrate");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().lines()).hasSize(1).first().asString().contains("unknown configuration key smtp.hots");
    }

    /**
     * The pool tries a refused connection again for 10 s before it gives up (DataSources), so the
     * three commands here run at once: one wait instead of three.
     */
    @Test
    void an_unreachable_database_is_a_runtime_failure_in_one_line_without_any_password_of_the_url_or_the_environment()
            throws Exception {
        String url = "jdbc:mysql://mailer:s3cr3t-one@127.0.0.1:1/nothing?password=s3cr3t-two&pwd=s3cr3t-three";
        ExecutorService threads = Executors.newFixedThreadPool(3);   // not the common pool: one thread on two cores
        Future<CliHarness.Result> plain;
        Map<String, Future<CliHarness.Result>> withCredentials = new LinkedHashMap<>();
        try {
            plain = threads.submit(() -> new CliHarness(Map.of("MAILRUN_DB_URL", "jdbc:mysql://127.0.0.1:1/nothing",
                    "MAILRUN_DB_PASSWORD", "s3cr3t-pw"), Clock.systemUTC()).run("db", "migrate"));
            for (String[] args : new String[][] {{"db", "status"}, {"campaign", "list", "--verbose"}}) {
                withCredentials.put(String.join(" ", args),
                        threads.submit(() -> new CliHarness(Map.of("MAILRUN_DB_URL", url), Clock.systemUTC()).run(args)));
            }
        } finally {
            threads.shutdown();
        }

        CliHarness.Result r = plain.get(2, TimeUnit.MINUTES);
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err().lines()).hasSize(1);
        assertThat(r.err()).startsWith("mailrun: cannot connect to the database").doesNotContain("s3cr3t-pw");
        for (var command : withCredentials.entrySet()) {
            CliHarness.Result masked = command.getValue().get(2, TimeUnit.MINUTES);
            assertThat(masked.exitCode()).as(command.getKey()).isEqualTo(1);
            assertThat(masked.err()).as(command.getKey()).doesNotContain("s3cr3t")
                    .contains("mailrun: cannot connect to the database at jdbc:mysql://mailer:***@127.0.0.1:1/nothing"
                            + "?password=***&pwd=***: ");
        }
        CliHarness.Result badScheme = new CliHarness(Map.of("MAILRUN_DB_URL", "mysql://mailer:s3cr3t-one@db/m"),
                Clock.systemUTC()).run("db", "status");
        assertThat(badScheme.exitCode()).isEqualTo(2);
        assertThat(badScheme.err().lines()).containsExactly(
                "mailrun: configuration key db.url: must start with jdbc:mysql:// (or jdbc:mysql:replication://, jdbc:mysql:loadbalance://, jdbc:mysql+srv://), got 'mysql://mailer:***@db/m'");
    }

    @Test
    void db_status_and_migrate_show_the_database_url_without_its_credentials() throws Exception {
        String user = "mailrun_mask_" + ProcessHandle.current().pid();
        String password = "Sekr1t-pw-" + ProcessHandle.current().pid();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String host : new String[] {"%", "localhost"}) {
                s.execute("CREATE USER IF NOT EXISTS '" + user + "'@'" + host + "' IDENTIFIED BY '" + password + "'");
                s.execute("GRANT ALL ON " + db.databaseName() + ".* TO '" + user + "'@'" + host + "'");
            }
        } catch (SQLException skipGrantTables) {
            // A server started with --skip-grant-tables (the embedded test server) accepts any user and password.
        }
        String url = db.url().replace("://", "://" + user + ":" + password + "@") + "?password=" + password;
        try {
            CliHarness cli = new CliHarness(Map.of("MAILRUN_DB_URL", url, "MAILRUN_DB_USER", user), Clock.systemUTC());
            for (String[] args : new String[][] {{"db", "status"}, {"db", "migrate"}}) {
                CliHarness.Result r = cli.run(args);
                assertThat(r.exitCode()).as(r.err()).isZero();
                assertThat(r.out() + r.err()).doesNotContain(password)
                        .contains(user + ":***@").contains("?password=***");
            }
        } finally {
            try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP USER IF EXISTS '" + user + "'@'%', '" + user + "'@'localhost'");
            } catch (SQLException skipGrantTables) {
                // nothing was created
            }
        }
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
