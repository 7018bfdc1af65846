package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code subscribers consent} and {@code lists language} through the command line, on a real database. */
class ConsentCommandsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-24T10:00:00Z");

    @BeforeEach
    void empty() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
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

    @Test
    void consent_exports_each_subscription_with_its_consent_or_its_source_and_time() throws Exception {
        assertThat(run("lists", "create", "news", "--public", "--double-optin").exitCode()).isZero();
        assertThat(run("lists", "create", "offers", "--public").exitCode()).isZero();
        assertThat(run("subscribers", "add", "ann@example.com", "--list", "news", "--list", "offers").exitCode()).isZero();
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("""
                    INSERT INTO subscription_consent (subscriber_id, list_id, source, wording, consented_at, confirmed_at)
                    SELECT s.subscriber_id, s.list_id, 'form', 'v3', '2026-11-20 08:00:00.000', '2026-11-20 08:05:00.000'
                    FROM subscription s JOIN subscriber_list l ON l.id = s.list_id WHERE l.name = 'news'""");
        }

        CliHarness.Result r = run("subscribers", "consent", "ANN@example.com");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().lines()).containsExactly("list,status,source,consented_at,wording,confirmed_at,client_ip",
                "news,unconfirmed,form,2026-11-20T08:00:00Z,v3,2026-11-20T08:05:00Z,",
                "offers,confirmed,operator,2026-11-24T10:00:00Z,,,");
    }

    @Test
    void consent_of_an_unknown_address_and_a_language_not_shipped_exit_2_with_one_line() throws Exception {
        CliHarness.Result unknown = run("subscribers", "consent", "nobody@example.com");
        assertThat(unknown.exitCode()).isEqualTo(Cli.USAGE);
        assertThat(unknown.err()).contains("no subscriber nobody@example.com");

        assertThat(run("lists", "create", "news", "--public").exitCode()).isZero();
        CliHarness.Result french = run("lists", "language", "news", "fr");
        assertThat(french.exitCode()).isEqualTo(Cli.USAGE);
        assertThat(french.err()).contains("LANG").contains("en, de");
    }

    @Test
    void language_sets_and_clears_a_lists_language() throws Exception {
        assertThat(run("lists", "create", "news", "--public").exitCode()).isZero();

        assertThat(run("lists", "language", "news", "de").exitCode()).isZero();
        assertThat(language()).isEqualTo("de");
        assertThat(run("lists", "language", "news").exitCode()).isZero();
        assertThat(language()).isNull();
    }

    private static String language() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT language FROM subscriber_list WHERE name = 'news'")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
