package dev.mailrun.campaign.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.mail.template.TemplateLoader;
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
 * A running campaign that sent under 95% of its route's rate over a whole minute with recipients
 * due is never shown held back by nothing: status says how far under the rate it ran, with the
 * figures it has. Sent rows as a run records them, in a real database, on an injected clock.
 */
class StatusUnderRateTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
    private final SettableClock clock = new SettableClock(NOW);
    private final TaskStore tasks = new TaskStore(db.dataSource());
    private final Campaigns campaigns = new Campaigns(db.dataSource(), tasks, new TemplateLoader(Path.of("templates")), clock,
            Duration.ofSeconds(10));

    @Test
    void a_minute_at_83_percent_of_the_rate_with_recipients_due_names_the_shortfall_instead_of_nothing() throws Exception {
        Relays relays = StatusHoldsTest.relays(Map.of("ua", 8.0), "ua");
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, SendSettingsFixtures.defaults("unused", 0), relays);
        long id = running("Slow", "ua", 2_000);
        StatusHoldsTest.sent(db, id, 0, 60, NOW.minusSeconds(65));
        StatusHoldsTest.sent(db, id, 60, 400, NOW.minusSeconds(30));

        CampaignReport r = reports.report(id);

        assertThat(r.currentRate()).hasValue(400 / 60.0);
        assertThat(r.heldBackBy()).singleElement().asString()
                .startsWith("sending at 6.7/s, 83% of 8/s over the last minute; no limit explains it")
                .endsWith("no sending run reports its connections");
    }

    @Test
    void at_the_rate_or_in_a_first_minute_nothing_is_named() throws Exception {
        Relays relays = StatusHoldsTest.relays(Map.of("ub", 8.0), "ub");
        CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, SendSettingsFixtures.defaults("unused", 0), relays);
        long full = running("At rate", "ub", 2_000);
        StatusHoldsTest.sent(db, full, 0, 60, NOW.minusSeconds(65));
        StatusHoldsTest.sent(db, full, 60, 470, NOW.minusSeconds(30));
        long starting = running("Just started", "ub", 2_000);
        StatusHoldsTest.sent(db, starting, 0, 100, NOW.minusSeconds(20));

        assertThat(reports.report(full).heldBackBy()).as("470 a minute is 98% of 8/s").isEmpty();
        assertThat(reports.report(starting).heldBackBy()).as("sending began 20 s ago").isEmpty();
    }

    private long running(String name, String route, int recipients) throws Exception {
        long id = campaigns.create(new NewCampaign(name, "welcome", "news@sender.example", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), Optional.of(RelayRoute.parse(route)));
        CampaignFixtures.recipients(db.dataSource(), id, recipients);
        assertThat(campaigns.start(id)).isEqualTo(CampaignStatus.RUNNING);
        return id;
    }
}
