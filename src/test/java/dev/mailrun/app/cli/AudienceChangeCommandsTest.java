package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code mailrun lists update} and {@code mailrun subscribers unblocklist} through the real command line and database. */
class AudienceChangeCommandsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-12-07T10:00:00Z");

    @BeforeEach
    void empty() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
            s.execute("DELETE FROM suppression");
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
    void a_list_is_renamed_described_made_public_and_double_opt_in_and_what_is_not_given_stays() {
        ok("lists", "create", "news", "--description", "Weekly");
        assertThat(ok("lists", "update", "NEWS", "--name", "Newsletter", "--public", "--double-optin").out())
                .isEqualTo("updated list Newsletter (public, double opt-in): Weekly\n");
        assertThat(ok("lists", "update", "newsletter", "--private", "--single-optin", "--description", "").out())
                .isEqualTo("updated list Newsletter (private, single opt-in)\n");
        ok("lists", "create", "offers");
        assertThat(refused("lists", "update", "offers", "--name", "NEWSLETTER").err())
                .isEqualTo("mailrun: --name: a list named 'NEWSLETTER' exists already\n");
        assertThat(refused("lists", "update", "nope", "--public").err()).isEqualTo("mailrun: NAME: no list named 'nope'\n");
        assertThat(run("lists", "update", "offers", "--public", "--private").exitCode()).isEqualTo(Cli.USAGE);
    }

    @Test
    void an_address_taken_off_the_blocklist_is_enabled_and_its_subscriptions_stay_unsubscribed() {
        ok("lists", "create", "news");
        ok("subscribers", "add", "ann@example.com", "--list", "news");
        ok("subscribers", "blocklist", "ann@example.com");
        assertThat(ok("subscribers", "unblocklist", "ANN@example.com").out())
                .isEqualTo("took ann@example.com off the blocklist; its subscriptions stay unsubscribed\n");
        assertThat(ok("subscribers", "unblocklist", "ann@example.com").out()).isEqualTo("ann@example.com is not blocklisted\n");
        String shown = ok("subscribers", "show", "ann@example.com").out();
        assertThat(shown).contains("enabled").contains("unsubscribed").contains("unblocklisted");
        assertThat(refused("subscribers", "unblocklist", "bob@example.com").err()).isEqualTo("mailrun: no subscriber bob@example.com\n");
    }

    @Test
    void a_search_finds_subscribers_by_an_attribute_value() {
        ok("subscribers", "add", "ann@example.com", "--attr", "plan=pro");
        ok("subscribers", "add", "bob@example.com", "--attr", "plan=free");
        String found = ok("subscribers", "search", "--attr", "plan=pro").out();
        assertThat(found).contains("ann@example.com").doesNotContain("bob@example.com");
        assertThat(refused("subscribers", "search", "--attr", "=pro").err()).isEqualTo("mailrun: --attr: a name must not be blank\n");
    }
}
