package dev.mailrun.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.scheduler.NewTask;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code mailrun task …} and {@code tick} with a task whose handler is not configured. */
class TaskCommandTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private static final Instant START = Instant.parse("2026-11-21T10:00:00Z");
    private final SettableClock clock = SettableClock.stepping(START, Duration.ofMillis(1));

    private CliHarness cli() {
        Map<String, String> env = new HashMap<>();
        env.put("MAILRUN_DB_URL", db.url());
        env.put("MAILRUN_DB_USER", db.user());
        env.put("MAILRUN_DB_PASSWORD", db.password());
        env.put("MAILRUN_SMTP_HOST", "127.0.0.1");
        env.put("MAILRUN_SMTP_PORT", "1");
        env.put("MAILRUN_UNSUBSCRIBE_SECRET", "a-test-secret-that-is-long-enough-0123456789");
        env.put("MAILRUN_UNSUBSCRIBE_BASE_URL", "https://unsubscribe.sender.example");
        return new CliHarness(env, clock);
    }

    @Test
    void a_bounce_task_left_without_its_mailbox_is_skipped_listed_disabled_and_removed() throws Exception {
        // The bounce task was created while bounce.imap.host was set; this configuration has none.
        new TaskStore(db.dataSource()).create(NewTask.of("bounces", "bounce-check", Duration.ofMinutes(5), START));

        CliHarness.Result tick = cli().run("tick");
        assertThat(tick.exitCode()).as(tick.err()).isZero();
        assertThat(tick.out()).contains("bounces: skipped_no_handler (no handler named 'bounce-check'");

        CliHarness.Result list = cli().run("task", "list");
        assertThat(list.exitCode()).as(list.err()).isZero();
        assertThat(list.out().lines().filter(l -> l.startsWith("bounces ")).findFirst().orElseThrow())
                .contains("bounce-check").contains(" 5m ").contains(" yes ").contains(START.toString())
                .endsWith("skipped_no_handler");

        JsonNode json = new ObjectMapper().readTree(cli().run("task", "list", "--json").out());
        JsonNode bounces = json.get(0);
        assertThat(bounces.path("name").asText()).isEqualTo("bounces");
        assertThat(bounces.path("handler").asText()).isEqualTo("bounce-check");
        assertThat(bounces.path("interval_ms").asLong()).isEqualTo(300_000);
        assertThat(bounces.path("enabled").asBoolean()).isTrue();
        assertThat(bounces.path("next_run_at").asText()).isEqualTo(START.toString());
        assertThat(bounces.path("last_outcome").asText()).isEqualTo("skipped_no_handler");

        assertThat(cli().run("task", "disable", "bounces").out()).isEqualTo("task bounces disabled\n");
        assertThat(cli().run("tick").out()).isEqualTo("nothing due\n");
        assertThat(new ObjectMapper().readTree(cli().run("task", "list", "--json").out()).get(0).path("enabled").asBoolean())
                .isFalse();
        assertThat(cli().run("task", "enable", "bounces").exitCode()).isZero();

        CliHarness.Result removed = cli().run("task", "remove", "bounces");
        assertThat(removed.exitCode()).as(removed.err()).isZero();
        assertThat(new TaskStore(db.dataSource()).find("bounces")).isEmpty();
    }

    @Test
    void unknown_task_names_exit_2_with_one_line() {
        for (String command : new String[] {"enable", "disable", "remove"}) {
            CliHarness.Result r = cli().run("task", command, "no-such-task");
            assertThat(r.exitCode()).as(command).isEqualTo(2);
            assertThat(r.err().lines()).as(command)
                    .containsExactly("mailrun: no task named 'no-such-task' (see: mailrun task list)");
        }
    }

    @Test
    void a_campaign_task_is_removed_only_once_its_campaign_is_final() throws Exception {
        String id = cli().run("campaign", "create", "--name", "News", "--template", "newsletter",
                "--from", "news@sender.example").out().strip();
        Path csv = dir.resolve("list.csv");
        Files.writeString(csv, "email,name,city\nreader@list.example,Reader,Oslo\n");
        assertThat(cli().run("recipients", "import", "--campaign", id, csv.toString()).exitCode()).isZero();
        assertThat(cli().run("campaign", "start", id).exitCode()).isZero();

        CliHarness.Result refused = cli().run("task", "remove", "campaign-" + id);
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err().lines()).containsExactly("mailrun: task campaign-" + id + " sends campaign " + id
                + ", which is running; cancel the campaign instead (mailrun campaign cancel " + id + ")");
        assertThat(new TaskStore(db.dataSource()).find("campaign-" + id)).isPresent();

        assertThat(cli().run("campaign", "cancel", id).exitCode()).isZero();
        CliHarness.Result removed = cli().run("task", "remove", "campaign-" + id);
        assertThat(removed.exitCode()).as(removed.err()).isZero();
        assertThat(cli().run("task", "list").out()).doesNotContain("campaign-" + id);
        assertThat(cli().run("campaign", "status", id).exitCode()).as("the campaign's report still reads").isZero();
    }
}
