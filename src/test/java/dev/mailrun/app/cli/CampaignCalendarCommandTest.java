package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** campaign create --window / --expire-at and what campaign status shows of them, through the real command line. */
class CampaignCalendarCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    // Saturday 21 November 2026, 11:00 in Berlin.
    private final SettableClock clock = SettableClock.at("2026-11-21T10:00:00Z");

    private CliHarness cli() {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        return new CliHarness(env, clock);
    }

    private CliHarness.Result create(String... extra) {
        String[] base = {"campaign", "create", "--name", "Calendar", "--template", "newsletter", "--from", "news@sender.example"};
        String[] args = new String[base.length + extra.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        return cli().run(args);
    }

    @Test
    void status_shows_the_window_the_expiry_and_what_holds_the_campaign_back() throws Exception {
        CliHarness.Result created = create("--window", "Mon-Fri 08:00-18:00 Europe/Berlin", "--window", "Sat 14:00-16:00 UTC",
                "--expire-at", "2026-12-01T18:00 Europe/Berlin");
        assertThat(created.exitCode()).as(created.err()).isZero();
        String id = created.out().strip();

        CliHarness.Result text = cli().run("campaign", "status", id);
        assertThat(text.out())
                .contains("  window: Mon-Fri 08:00-18:00 Europe/Berlin; Sat 14:00-16:00 UTC; expires: 2026-12-01T17:00:00Z")
                .contains("  held back by: window closed until 2026-11-21T14:00:00Z (2026-11-21 15:00 Europe/Berlin)");
        JsonNode json = new ObjectMapper().readTree(cli().run("campaign", "status", id, "--json").out());
        assertThat(json.get("held_back_by").get(0).asText())
                .isEqualTo("window closed until 2026-11-21T14:00:00Z (2026-11-21 15:00 Europe/Berlin)");
        assertThat(json.get("campaign").get("window").asText()).isEqualTo("Mon-Fri 08:00-18:00 Europe/Berlin; Sat 14:00-16:00 UTC");
        assertThat(json.get("campaign").get("expire_at").asText()).isEqualTo("2026-12-01T17:00:00Z");

        clock.set(java.time.Instant.parse("2026-11-21T14:30:00Z"));
        assertThat(new ObjectMapper().readTree(cli().run("campaign", "status", id, "--json").out()).get("held_back_by")).isEmpty();
        assertThat(cli().run("campaign", "status", id).out()).contains("  held back by: -");
        clock.set(java.time.Instant.parse("2026-12-01T17:00:00Z"));
        assertThat(cli().run("campaign", "status", id).out()).contains("  held back by: expired (at 2026-12-01T17:00:00Z)");
    }

    @Test
    void bad_windows_and_expiry_times_exit_2_with_one_line_naming_the_option_and_value() {
        assertOneLineError(create("--window", "Mon-Fri 8-18 Europe/Berlin"),
                "--window 'Mon-Fri 8-18 Europe/Berlin': times must read HH:MM-HH:MM, got '8-18'");
        assertOneLineError(create("--window", "Mon-Fri 08:00-18:00 Europe/Atlantis"),
                "--window 'Mon-Fri 08:00-18:00 Europe/Atlantis': unknown time zone 'Europe/Atlantis' (use a region such as Europe/Berlin, or UTC)");
        assertOneLineError(create("--expire-at", "2026-11-20T10:00:00Z"),
                "--expire-at: 2026-11-20T10:00:00Z is not in the future (now 2026-11-21T10:00:00Z)");
        assertOneLineError(create("--expire-at", "next week"),
                "--expire-at: must be an ISO-8601 instant such as 2026-12-01T18:00:00Z or a local date-time with its zone"
                        + " such as '2026-12-01T18:00 Europe/Berlin', got 'next week'");
        assertOneLineError(create("--start-at", "2026-12-02T00:00:00Z", "--expire-at", "2026-12-01T00:00:00Z"),
                "--expire-at: 2026-12-01T00:00:00Z must be after the start (2026-12-02T00:00:00Z)");
    }

    @Test
    void a_start_in_the_past_is_refused_as_an_expiry_is_and_both_read_the_same_forms() throws Exception {
        String before = cli().run("campaign", "list").out();
        assertOneLineError(create("--start-at", "2026-11-20T10:00:00Z"),
                "--start-at: 2026-11-20T10:00:00Z is not in the future (now 2026-11-21T10:00:00Z)");
        assertOneLineError(create("--start-at", "2026-11-21T11:00 Europe/Berlin"),
                "--start-at: 2026-11-21T10:00:00Z is not in the future (now 2026-11-21T10:00:00Z)");
        assertOneLineError(create("--start-at", "next week"),
                "--start-at: must be an ISO-8601 instant such as 2026-12-01T18:00:00Z or a local date-time with its zone"
                        + " such as '2026-12-01T18:00 Europe/Berlin', got 'next week'");
        assertThat(cli().run("campaign", "list").out()).as("nothing created").isEqualTo(before);

        CliHarness.Result created = create("--start-at", "2026-12-01T09:00 Europe/Berlin", "--expire-at", "2026-12-01T18:00[Europe/Berlin]");
        assertThat(created.exitCode()).as(created.err()).isZero();
        JsonNode campaign = new ObjectMapper().readTree(cli().run("campaign", "status", created.out().strip(), "--json").out())
                .get("campaign");
        assertThat(campaign.get("start_at").asText()).isEqualTo("2026-12-01T08:00:00Z");
        assertThat(campaign.get("expire_at").asText()).isEqualTo("2026-12-01T17:00:00Z");
    }

    private static void assertOneLineError(CliHarness.Result r, String message) {
        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip()).endsWith(message);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.out()).isEmpty();
    }
}
