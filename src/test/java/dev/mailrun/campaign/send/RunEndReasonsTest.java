package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.JumpingClock;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.timebox.EndReason;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The end reason each run of a campaign records: a run cut by its deadline under the rate limit
 * says {@code deadline}, the run that finishes the list {@code completed}; {@code no_progress} is
 * kept for a batch that really tried nothing, and says why.
 */
class RunEndReasonsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(3);
    private static final Instant SLOT = Instant.parse("2026-11-21T10:00:00Z");

    @Test
    void runs_cut_by_their_deadline_under_the_rate_limit_end_on_the_deadline_and_the_last_one_completed() throws Exception {
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().start()) {
            JumpingClock clock = JumpingClock.startingAt(SLOT);
            OneRelaySettings settings = SendSettingsFixtures.defaults("relay-ends", 50);
            try (SendingHarness h = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL, settings, "w1")) {
                long id = h.campaigns.create(new NewCampaign("Ends", "welcome", "news@sender.example", Optional.empty(),
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
                CampaignFixtures.recipients(db.dataSource(), id, 400);
                h.campaigns.start(id);

                Instant slot = SLOT;
                for (int i = 0; i < 12 && h.campaigns.get(id).status() != CampaignStatus.COMPLETED; i++) {
                    clock.jumpTo(slot);
                    h.scheduler.tick();
                    slot = slot.plus(INTERVAL);
                }

                assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
                List<TaskRun> runs = new ArrayList<>(h.tasks.recentRuns(SendTask.taskName(id), 20));
                java.util.Collections.reverse(runs);
                List<String> ends = runs.stream().map(r -> r.summary().orElseThrow().path("end").asText()).toList();
                // 400 at 50/s in windows of under 3 s (at most 150 a run): runs cut by their deadline, then the last.
                assertThat(ends.size()).isGreaterThanOrEqualTo(3);
                assertThat(ends.subList(0, ends.size() - 1)).containsOnly("deadline");
                assertThat(ends.get(ends.size() - 1)).isEqualTo("completed");
                assertThat(CampaignFixtures.recipientCount(db.dataSource(), id, "sent")).isEqualTo(400);
            }
        }
    }

    @Test
    void a_batch_that_tried_nothing_with_time_left_ends_no_progress_and_says_why() {
        RunEndReason end = RunEndReason.of(facts(EndReason.NO_PROGRESS, Optional.empty(),
                Optional.of("the last batch took 10 recipient(s) and tried none of them, with 4.2 s left before the deadline")));

        assertThat(end.name()).isEqualTo("no_progress");
        assertThat(end.why()).hasValue("the last batch took 10 recipient(s) and tried none of them, with 4.2 s left before the deadline");
    }

    @Test
    void a_run_stopped_because_every_relay_is_down_names_them_instead_of_a_stop_request() {
        RunEndReason end = RunEndReason.of(facts(EndReason.STOP_REQUESTED,
                Optional.of("a down until 2026-11-21T10:00:30Z (cannot be reached: connection refused)"), Optional.empty()));

        assertThat(end.name()).isEqualTo("relays_down");
        assertThat(end.why()).get().asString().startsWith("a down until 2026-11-21T10:00:30Z");
    }

    private static RunEndReason.Facts facts(EndReason timebox, Optional<String> relaysDown, Optional<String> lastEmpty) {
        return new RunEndReason.Facts(timebox, false, false, false, false, relaysDown, false, false, Optional.of("running"),
                lastEmpty);
    }
}
