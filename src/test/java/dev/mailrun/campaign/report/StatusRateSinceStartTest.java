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
 * A campaign that began sending within the last minute: its current rate is over the time it has sent,
 * not over a whole minute (a page opened two seconds after a start showed 0.2/s while it sent 7/s).
 */
class StatusRateSinceStartTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-23T10:00:00Z"));
    private final TaskStore tasks = new TaskStore(db.dataSource());
    private final Campaigns campaigns = new Campaigns(db.dataSource(), tasks, new TemplateLoader(Path.of("templates")), clock,
            Duration.ofSeconds(10));

    @Test
    void a_campaign_that_began_sending_two_seconds_ago_shows_the_rate_it_sends_at() throws Exception {
        Relays relays = StatusHoldsTest.relays(Map.of("ha", 8.0), "ha");
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, SendSettingsFixtures.defaults(), relays);
        long id = campaigns.create(new NewCampaign("Just started", "welcome", "news@sender.example", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), Optional.of(RelayRoute.parse("ha")));
        CampaignFixtures.recipients(db.dataSource(), id, 600);
        assertThat(campaigns.start(id)).isEqualTo(CampaignStatus.RUNNING);
        clock.set(Instant.parse("2026-11-23T11:00:00.500Z"));
        StatusHoldsTest.sent(db, id, 0, 7, Instant.parse("2026-11-23T10:59:58.300Z"));
        StatusHoldsTest.sent(db, id, 7, 7, Instant.parse("2026-11-23T10:59:59.300Z"));
        StatusHoldsTest.sent(db, id, 14, 3, Instant.parse("2026-11-23T11:00:00.200Z"));
        // 17 over the 2.5 s since its first second began, not over a whole minute (0.3/s).
        assertThat(reports.report(id).currentRate()).hasValueSatisfying(r -> assertThat(r).isCloseTo(17 / 2.5,
                org.assertj.core.data.Offset.offset(0.001)));

        clock.set(Instant.parse("2026-11-23T11:01:30Z"));
        StatusHoldsTest.sent(db, id, 17, 30, Instant.parse("2026-11-23T11:00:25Z"));
        StatusHoldsTest.sent(db, id, 47, 60, Instant.parse("2026-11-23T11:01:29Z"));
        assertThat(reports.report(id).currentRate()).as("sending for a whole minute and more: over the minute")
                .hasValue(60 / 60.0);
    }
}
