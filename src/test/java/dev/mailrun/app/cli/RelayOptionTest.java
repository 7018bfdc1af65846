package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code campaign create --relay} and the relays {@code campaign status} shows. */
class RelayOptionTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));

    private CliHarness cli() {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        env.put("MAILRUN_SMTP_RELAYS", "primary,backup");
        env.put("MAILRUN_SMTP_PRIMARY_HOST", "127.0.0.1");
        env.put("MAILRUN_SMTP_BACKUP_HOST", "127.0.0.1");
        env.put("MAILRUN_UNSUBSCRIBE_SECRET", "a-test-secret-that-is-long-enough-0123456789");
        env.put("MAILRUN_UNSUBSCRIBE_BASE_URL", "https://unsubscribe.sender.example");
        return new CliHarness(env, clock);
    }

    private static String[] create(String... more) {
        String[] base = {"campaign", "create", "--name", "Relays", "--template", "welcome", "--from", "news@sender.example"};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void a_route_naming_an_unknown_relay_or_a_bad_weight_is_refused_with_one_line() {
        String before = cli().run("campaign", "list").out();
        CliHarness.Result unknown = cli().run(create("--relay", "primary:70,nowhere:30"));
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err().strip())
                .isEqualTo("mailrun: --relay: relay 'nowhere': not configured (configured: primary, backup)");
        CliHarness.Result weight = cli().run(create("--relay", "primary:lots"));
        assertThat(weight.exitCode()).isEqualTo(2);
        assertThat(weight.err().strip()).isEqualTo("mailrun: --relay: relay 'primary': weight must be a whole number 0..10000, got 'lots'");
        assertThat(cli().run("campaign", "list").out()).as("nothing created").isEqualTo(before);
    }

    @Test
    void status_shows_the_relays_of_the_campaign_route_or_of_the_default_route() throws Exception {
        CliHarness.Result created = cli().run(create("--relay", "primary:70,backup:30"));
        assertThat(created.exitCode()).as(created.err()).isZero();
        JsonNode relays = json(cli().run("campaign", "status", created.out().strip(), "--json").out()).get("relays");
        assertThat(relays).hasSize(2);
        assertThat(relays.get(0).get("name").asText()).isEqualTo("primary");
        assertThat(relays.get(0).get("weight").asInt()).isEqualTo(70);
        assertThat(relays.get(0).get("state").asText()).isEqualTo("up");
        assertThat(relays.get(0).get("down_until").isNull()).isTrue();
        assertThat(relays.get(1).get("name").asText()).isEqualTo("backup");
        assertThat(relays.get(1).get("sent").asLong()).isZero();

        CliHarness.Result plain = cli().run(create());
        JsonNode byDefault = json(cli().run("campaign", "status", plain.out().strip(), "--json").out()).get("relays");
        assertThat(byDefault.findValuesAsText("name")).containsExactly("primary", "backup");
        assertThat(byDefault.get(0).get("weight").asInt()).as("a plain list: the first takes everything").isEqualTo(1);
        assertThat(byDefault.get(1).get("weight").asInt()).isZero();
        String text = cli().run("campaign", "status", plain.out().strip()).out();
        assertThat(text).contains("relays:").containsPattern("primary +weight 1 +sent 0, failed 0, deferred 0; up");
    }

    private static JsonNode json(String text) throws Exception {
        return new ObjectMapper().readTree(text);
    }

    @Test
    void text_status_shows_the_relays_section_for_a_single_relay_as_json_does() throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        env.put("MAILRUN_SMTP_HOST", "127.0.0.1");
        env.put("MAILRUN_UNSUBSCRIBE_SECRET", "a-test-secret-that-is-long-enough-0123456789");
        env.put("MAILRUN_UNSUBSCRIBE_BASE_URL", "https://unsubscribe.sender.example");
        CliHarness single = new CliHarness(env, clock);
        String id = single.run(create()).out().strip();

        String text = single.run("campaign", "status", id).out();

        assertThat(json(single.run("campaign", "status", id, "--json").out()).get("relays").findValuesAsText("name"))
                .containsExactly("default");
        assertThat(text).contains("relays:").containsPattern("default +weight 1 +sent 0, failed 0, deferred 0; up");
    }
}
