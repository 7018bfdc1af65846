package dev.mailrun.campaign.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.RunContext;
import dev.mailrun.scheduler.RunReport;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.TaskHandler;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The current rate {@code campaign status} shows is what was sent over the last minute, not the
 * rate of the last run that sent anything: a run recorded in the real run history by a stand-in
 * handler under the sending task's name, its recipients marked sent as a run records them.
 */
class StatusCurrentRateTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-23T10:00:00Z"));
    private final TaskStore tasks = new TaskStore(db.dataSource());
    private final Campaigns campaigns = new Campaigns(db.dataSource(), tasks, new TemplateLoader(Path.of("templates")), clock,
            Duration.ofSeconds(10));

    @Test
    void a_run_that_sent_forty_minutes_ago_leaves_no_current_rate() throws Exception {
        Relays relays = StatusHoldsTest.relays(Map.of("ha", 20.0), "ha");
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, SendSettingsFixtures.defaults(), relays);
        long id = campaigns.create(new NewCampaign("History", "welcome", "news@sender.example", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), Optional.of(RelayRoute.parse("ha")));
        CampaignFixtures.recipients(db.dataSource(), id, 600);
        assertThat(campaigns.start(id)).isEqualTo(CampaignStatus.RUNNING);
        // A run under the sending task's name that reports 400 items over its window, as a real run's row reads.
        TaskHandler standIn = new TaskHandler() {
            @Override
            public String name() {
                return SendTask.NAME;
            }

            @Override
            public void run(RunContext ctx) {
                ctx.report(RunReport.of(4, 400, 0.99, Duration.ZERO));
                clock.set(ctx.deadline());
            }
        };
        try (Scheduler s = new Scheduler(db.dataSource(), HandlerRegistry.of(standIn), SchedulerConfig.defaults("w1"),
                clock)) {
            clock.set(tasks.find(SendTask.taskName(id)).orElseThrow().nextRunAt());
            assertThat(s.tick().runs()).isEqualTo(1);
        }
        StatusHoldsTest.sent(db, id, 0, 400, clock.instant().minusSeconds(60));
        assertThat(reports.report(id).currentRate()).as("400 in the last minute").hasValue(400 / 60.0);

        clock.set(clock.instant().plus(Duration.ofMinutes(40)));
        CampaignReport r = reports.report(id);
        assertThat(r.averageRate()).as("the runs' average stays").isPresent();
        assertThat(r.currentRate()).isEmpty();
        assertThat(r.eta().from(clock.instant())).as("200 left at 20/s").hasValue(Duration.ofSeconds(10));
    }
}
