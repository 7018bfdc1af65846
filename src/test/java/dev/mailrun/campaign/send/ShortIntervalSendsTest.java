package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.store.RunSecondTable;
import dev.mailrun.campaign.store.RunSecondTable.Second;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.RunOutcome;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.JumpingClock;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The shortest run window the configuration accepts (tick.interval minus the margin: 2 s) leaves every run time to send. */
class ShortIntervalSendsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(3);
    private static final Instant SLOT = Instant.parse("2026-11-21T10:00:00Z");

    @Test
    void a_campaign_on_a_three_second_interval_and_a_one_second_margin_sends_in_every_run_from_the_first() throws Exception {
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().start()) {
            JumpingClock clock = JumpingClock.startingAt(SLOT.minusSeconds(30));
            OneRelaySettings settings = SendSettingsFixtures.defaults("relay-short", 50);
            SchedulerConfig worker = SchedulerConfig.defaults("w1")
                    .withSafetyMargin(SchedulerConfig.SafetyMargin.fixed(Duration.ofSeconds(1)))
                    .withOverlapWait(Duration.ofSeconds(5));
            try (SendingHarness h = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL, settings, "w1");
                 Scheduler s = new Scheduler(db.dataSource(), HandlerRegistry.of(h.handler), worker, clock)) {
                long id = h.campaigns.create(new NewCampaign("Short", "welcome", "news@sender.example", Optional.empty(),
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
                // More than three runs can send at 50/s, so that each of the three has someone left to send to.
                CampaignFixtures.recipients(db.dataSource(), id, 1_000);
                h.campaigns.start(id);

                Instant slot = SLOT;
                for (int i = 0; i < 3; i++) {
                    clock.jumpTo(slot);
                    s.tick();
                    slot = slot.plus(INTERVAL);
                }

                List<TaskRun> runs = h.tasks.recentRuns(SendTask.taskName(id), 10).stream()
                        .filter(r -> r.outcome() != RunOutcome.MISFIRED).toList();
                assertThat(runs).hasSize(3);
                // The runs wrote their seconds for status: sending for part of the three windows' 9 s, the
                // rest being the time between runs, and the worker's CPU as they read it.
                List<Second> seconds = Transactions.inTransaction(db.dataSource(),
                        c -> new RunSecondTable().since(c, id, SLOT.minusSeconds(60)));
                assertThat(seconds.stream().mapToLong(Second::sendingMs).sum()).isPositive()
                        .isLessThan(INTERVAL.multipliedBy(3).toMillis());
                assertThat(seconds).flatMap(sec -> sec.cpu().stream().toList()).isNotEmpty()
                        .allSatisfy(cpu -> assertThat(cpu.cores()).isEqualTo(Runtime.getRuntime().availableProcessors()));
                assertThat(runs).allSatisfy(r -> assertThat(r.summary().orElseThrow().path("sent").asLong()).isPositive());
            }
        }
    }
}
