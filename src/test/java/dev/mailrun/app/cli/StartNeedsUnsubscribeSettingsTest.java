package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.WorkerEnv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * No worker sends without {@code unsubscribe.secret} and {@code unsubscribe.base-url}: {@code campaign
 * start} refuses without them (exit 2, naming the key), and {@code campaign status} names a missing
 * one as what holds a running campaign back. The real CLI in-process on a real database.
 */
class StartNeedsUnsubscribeSettingsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));

    @Test
    void start_without_the_secret_exits_2_naming_it_and_status_shows_the_missing_secret_as_a_hold() throws Exception {
        Map<String, String> complete = WorkerEnv.of(db, 2525);
        Map<String, String> noSecret = WorkerEnv.of(db, 2525);
        noSecret.remove("MAILRUN_UNSUBSCRIBE_SECRET");
        Map<String, String> noBaseUrl = WorkerEnv.of(db, 2525);
        noBaseUrl.remove("MAILRUN_UNSUBSCRIBE_BASE_URL");
        String id = new CliHarness(noSecret, clock).run("campaign", "create", "--name", "No secret", "--template",
                "newsletter", "--from", "news@sender.example").out().strip();
        Path csv = dir.resolve("list.csv");
        Files.writeString(csv, "email,name,city\nann@list.example,Ann,Oslo\nbob@list.example,Bob,Oslo\n");
        assertThat(new CliHarness(noSecret, clock).run("recipients", "import", "--campaign", id, csv.toString()).exitCode())
                .isZero();

        CliHarness.Result refused = new CliHarness(noSecret, clock).run("campaign", "start", id);
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err().strip()).contains("unsubscribe.secret").doesNotContain("next tick").hasLineCount(1);
        assertThat(refused.out()).isEmpty();
        CliHarness.Result noUrl = new CliHarness(noBaseUrl, clock).run("campaign", "start", id);
        assertThat(noUrl.exitCode()).isEqualTo(2);
        assertThat(noUrl.err()).contains("unsubscribe.base-url");
        assertThat(status(noSecret, id)).isEqualTo("draft");

        // Started where the secret is set, looked at from where it is not (a worker there could not send).
        CliHarness.Result started = new CliHarness(complete, clock).run("campaign", "start", id);
        assertThat(started.exitCode()).as(started.err()).isZero();
        assertThat(heldBackBy(complete, id)).isEmpty();
        assertThat(heldBackBy(noSecret, id)).containsExactly("unsubscribe.secret is not set: no worker sends without it");
        assertThat(new CliHarness(noSecret, clock).run("campaign", "status", id).out())
                .contains("held back by: unsubscribe.secret is not set: no worker sends without it")
                .contains("ETA after unsubscribe.secret is set");
    }

    private String status(Map<String, String> env, String id) throws Exception {
        CliHarness.Result r = new CliHarness(env, clock).run("campaign", "status", id, "--json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        return new ObjectMapper().readTree(r.out()).path("campaign").path("status").asText();
    }

    private List<String> heldBackBy(Map<String, String> env, String id) throws Exception {
        CliHarness.Result r = new CliHarness(env, clock).run("campaign", "status", id, "--json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<String> held = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).path("held_back_by").forEach(n -> held.add(n.asText()));
        return held;
    }
}
