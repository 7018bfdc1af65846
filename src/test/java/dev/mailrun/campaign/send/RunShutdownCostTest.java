package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The shutdown cost a run keeps free for the next ({@code runCosts} in the task's metadata) is the
 * run's own final work, not the wait for its last messages: every batch already leaves their
 * in-flight time free before the deadline, and counted in the shutdown as well it was kept twice, so
 * that against a relay far away each run stopped sending a whole message's round trips early.
 */
class RunShutdownCostTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final int RECIPIENTS = 200;
    private static final Duration PER_MESSAGE = Duration.ofSeconds(3);

    @Test
    void the_shutdown_a_run_keeps_free_leaves_out_the_time_its_last_messages_were_on_the_wire() throws Exception {
        SettableClock clock = SettableClock.at("2026-12-07T10:00:00Z");
        AtomicInteger accepted = new AtomicInteger();
        // Each message takes three seconds of the test's clock at the relay, which moves it as it
        // answers the message. It answers a moment late on the wall clock as well: the run's batch has
        // ended by then (a batch ends once its messages are started), as against a relay far away.
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().onMessage(cmd -> {
            pause(Duration.ofMillis(40));
            clock.advance(PER_MESSAGE);
            accepted.incrementAndGet();
            return Reply.ok();
        }).start()) {
            // A rate below what four connections could do: connections wait for their turn, so a batch
            // ends while its last messages are on the wire, as against a relay far away.
            OneRelaySettings settings = SendSettingsFixtures.builder().batchMax(50).through("far-relay", 20);
            try (SendingHarness h = new SendingHarness(db.dataSource(), clock, smtp.port(), Duration.ofMinutes(1), settings,
                    "w1", 4)) {
                long id = h.campaigns.create(new NewCampaign("Far relay", "welcome", "news@sender.example", Optional.empty(),
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
                CampaignFixtures.recipients(db.dataSource(), id, RECIPIENTS);
                h.campaigns.start(id);

                h.scheduler.tick();

                TaskRun run = h.tasks.recentRuns(SendTask.taskName(id), 1).get(0);
                assertThat(run.summary().orElseThrow().path("end").asText()).as("the deadline ended the run").isEqualTo("deadline");
                assertThat(accepted.get()).isBetween(2, RECIPIENTS - 1);
                JsonNode costs = h.tasks.find(SendTask.taskName(id)).orElseThrow().metadata().json().path("runCosts");
                assertThat(costs.path("samples").asLong()).isEqualTo(1);
                // The clock moves only with the messages: the run's own final work took none of it.
                assertThat(costs.path("shutdownMillis").asDouble())
                        .as("the last message's %s on the wire is not part of the shutdown: %s", PER_MESSAGE, costs)
                        .isLessThan(PER_MESSAGE.toMillis());
                h.campaigns.cancel(id);
            }
        }
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
