package dev.mailrun.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.RunContext;
import dev.mailrun.scheduler.RunOutcome;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.TaskHandler;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.scheduler.TickSummary;
import dev.mailrun.scheduler.Worker;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A campaign started while a worker runs: its first slot is the one holding the start, which the
 * worker never ticks mid-slot, so its first run comes at the next boundary — and nothing was missed.
 */
class StartMidSlotTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant TEN = Instant.parse("2026-06-01T10:00:00Z");
    private static final Duration INTERVAL = Duration.ofMinutes(5);

    @Test
    void a_campaign_started_mid_slot_on_a_running_worker_records_no_misfire_at_its_first_run() throws Exception {
        SettableClock clock = new SettableClock(TEN.plus(Duration.ofMinutes(2)));
        List<Instant> slots = new ArrayList<>();
        TaskHandler standIn = new TaskHandler() {
            @Override
            public String name() {
                return SendTask.NAME;
            }

            @Override
            public void run(RunContext ctx) {
                slots.add(ctx.scheduledFor());
            }
        };
        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, 1, INTERVAL,
                SendSettingsFixtures.defaults("test-relay", 10), "w1");
             Scheduler s = new Scheduler(db.dataSource(), HandlerRegistry.of(standIn),
                     SchedulerConfig.defaults("w1"), clock)) {
            long id = h.campaigns.create(new NewCampaign("Mid slot", "welcome", "news@sender.example",
                    Optional.of("Sender News"), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
            CampaignFixtures.recipients(db.dataSource(), id, 3);
            h.campaigns.start(id);
            clock.set(Worker.nextSlot(clock.instant(), INTERVAL).plusMillis(30)); // the worker's next tick

            TickSummary tick = s.tick();

            assertThat(tick.runs()).isEqualTo(1);
            assertThat(slots).containsExactly(TEN.plus(INTERVAL));
            List<TaskRun> history = h.tasks.recentRuns(SendTask.taskName(id), 10);
            assertThat(history).extracting(TaskRun::outcome).containsExactly(RunOutcome.SUCCEEDED);
        }
    }
}
