package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.PersonEverywhere;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code mailrun subscribers erase} through the real command line and the real database. */
class SubscriberEraseCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-12-01T10:00:00Z");

    @Test
    void erase_removes_the_person_everywhere_and_a_later_add_is_refused() throws Exception {
        PersonEverywhere.make(db.dataSource(), clock);
        long id = PersonEverywhere.one(db.dataSource(), "SELECT id FROM subscriber WHERE email_key = '" + PersonEverywhere.KEY + "'");

        CliHarness.Result erased = run("subscribers", "erase", "zelda.erase@EXAMPLE.org");

        assertThat(erased.exitCode()).as(erased.err()).isZero();
        assertThat(erased.out()).isEqualTo("erased subscriber " + id + ": 1 recipient row made anonymous, 2 open(s) and click(s) deleted\n");
        assertThat(PersonEverywhere.holding(db.dataSource(), PersonEverywhere.KEY)).isEmpty();
        CliHarness.Result again = run("subscribers", "add", PersonEverywhere.EMAIL);
        assertThat(again.exitCode()).isEqualTo(Cli.USAGE);
        assertThat(again.err()).contains("suppression list");
    }

    @Test
    void a_bad_address_is_one_line_with_exit_2() {
        CliHarness.Result r = run("subscribers", "erase", "nope");

        assertThat(r.exitCode()).isEqualTo(Cli.USAGE);
        assertThat(r.err()).isEqualTo("mailrun: EMAIL: 'nope' is not an email address\n");
    }

    private CliHarness.Result run(String... args) {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        return new CliHarness(env, clock).run(args);
    }
}
