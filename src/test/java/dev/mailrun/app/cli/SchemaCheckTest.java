package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.app.AppContext;
import dev.mailrun.db.Migrations;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** This class rewinds its own database's migration history, so it has a database to itself. */
class SchemaCheckTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @Test
    void commands_refuse_an_out_of_date_schema_and_say_how_to_migrate() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM flyway_schema_history WHERE version = "
                    + "(SELECT v FROM (SELECT MAX(CAST(version AS UNSIGNED)) v FROM flyway_schema_history) x)");
        }
        Map<String, String> env = Map.of("MAILRUN_DB_URL", db.url(), "MAILRUN_DB_USER", db.user(), "MAILRUN_DB_PASSWORD", db.password());
        try (AppContext ctx = AppContext.load(Optional.empty(), env, Clock.systemUTC())) {
            assertThatThrownBy(ctx::dataSource)
                    .isInstanceOf(Migrations.SchemaNotCurrentException.class)
                    .hasMessageEndingWith("pending migration(s)); run: mailrun db migrate");
        }
        CliHarness.Result status = new CliHarness(env, Clock.systemUTC()).run("db", "status");
        assertThat(status.exitCode()).isZero();
        assertThat(status.out()).contains("1 pending");
    }
}
