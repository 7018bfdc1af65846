package dev.mailrun.campaign.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.RunContext;
import dev.mailrun.scheduler.RunReport;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.TaskHandler;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Campaign status shows, per run, the share of the window it sent at the allowed rate, the gap
 * before it, its wait at the slot and its margin. The runs are a stand-in handler under the sending
 * task's name that reports a known number of items and uses its window to the deadline, on the
 * injected clock.
 */
class RunWindowReportTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant TEN = Instant.parse("2026-06-01T10:00:00Z");
    private static final Duration INTERVAL = Duration.ofMinutes(5);

    private final SettableClock clock = new SettableClock(TEN);

    @Test
    void status_shows_each_runs_window_share_gap_wait_and_margin() throws Exception {
        OneRelaySettings settings = SendSettingsFixtures.defaults("test-relay", 10); // 10/s: 3000 per 5-minute window
        long[] items = {2_850, 2_970, 2_985};
        TaskHandler standIn = new TaskHandler() {
            int run;

            @Override
            public String name() {
                return SendTask.NAME;
            }

            @Override
            public void run(RunContext ctx) {
                ctx.report(RunReport.of(10, items[run++], 0.99, Duration.ZERO));
                clock.set(ctx.deadline().plusMillis(200));
            }
        };
        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, 1, INTERVAL, settings, "w1");
             Scheduler s = new Scheduler(db.dataSource(), HandlerRegistry.of(standIn),
                     SchedulerConfig.defaults("w1"), clock)) {
            long id = h.campaigns.create(new NewCampaign("Window", "welcome", "news@sender.example",
                    Optional.of("Sender News"), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
            CampaignFixtures.recipients(db.dataSource(), id, 10);
            assertThat(h.campaigns.start(id)).isEqualTo(CampaignStatus.RUNNING);
            Instant slot = h.tasks.find(SendTask.taskName(id)).orElseThrow().nextRunAt();
            for (int i = 0; i < 3; i++) {
                clock.set(slot.plusMillis(30));
                assertThat(s.tick().runs()).isEqualTo(1);
                slot = slot.plus(INTERVAL);
            }

            CampaignReport report = h.reports().report(id);

            List<CampaignReport.RunLine> runs = report.runs(); // newest first
            assertThat(runs).extracting(r -> r.windowShare().orElseThrow())
                    .containsExactly(2_985 / 3000.0, 2_970 / 3000.0, 2_850 / 3000.0);
            assertThat(runs).allSatisfy(r -> assertThat(r.waited()).hasValue(Duration.ZERO));
            assertThat(runs.get(2).gap()).as("the first run has no run before it").isEmpty();
            assertThat(runs.get(0).gap()).isPresent();
            assertThat(runs.get(2).margin()).as("nothing measured yet: the configured bound").hasValue(Duration.ofSeconds(30));
            assertThat(runs.get(0).margin()).as("200 ms release + 30 ms lateness, above the 100 ms floor")
                    .hasValue(Duration.ofMillis(230));
            String json = CampaignReportJson.of(report);
            assertThat(json).contains("\"window_share\" : 0.995").contains("\"gap_ms\"").contains("\"margin_ms\" : 230");
        }
    }
}
