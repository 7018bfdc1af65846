package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.route.Relay;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendDependenciesFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.TestTiming;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A run's allowed rate — what its window share in the run history is measured against — is its
 * route's rate, not the first relay's: relays a=7/s and b=3/s, route b:30,a:70, each a scripted SMTP
 * server on a real socket, with the real scheduler and sending task.
 */
class RouteAllowedRateTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(10);

    @Test
    void a_runs_window_share_is_measured_against_the_sum_of_its_routes_relay_rates() throws Exception {
        SettableClock clock = new SettableClock(Instant.parse("2026-11-23T10:00:00Z"));
        try (ScriptedSmtpServer a = ScriptedSmtpServer.builder().start();
             ScriptedSmtpServer b = ScriptedSmtpServer.builder().start()) {
            Map<String, Relay> byName = new LinkedHashMap<>();
            byName.put("a", new Relay("a", smtp(a).withRate(7)));
            byName.put("b", new Relay("b", smtp(b).withRate(3)));
            Relays relays = new Relays(byName, RelayRoute.parse("a,b"));
            SendSettings settings = SendSettingsFixtures.builder().batchMax(20).build();
            TemplateLoader templates = new TemplateLoader(Path.of("templates"));
            SendTask task = new SendTask(SendDependenciesFixtures.relays(db.dataSource(), templates, settings,
                    TestTiming.realTime(clock), relays));
            TaskStore tasks = new TaskStore(db.dataSource());
            Campaigns campaigns = new Campaigns(db.dataSource(), tasks, templates, clock, INTERVAL);
            long id = campaigns.create(new NewCampaign("Route rate", "welcome", "news@sender.example", Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), Optional.of(RelayRoute.parse("b:30,a:70")));
            CampaignFixtures.recipients(db.dataSource(), id, 20);
            assertThat(campaigns.start(id)).isEqualTo(CampaignStatus.RUNNING);

            try (Scheduler scheduler = new Scheduler(db.dataSource(), HandlerRegistry.of(task),
                    SchedulerConfig.defaults("w1"), clock)) {
                scheduler.tick();
            }

            TaskRun run = tasks.recentRuns(SendTask.taskName(id), 1).get(0);
            assertThat(run.items()).hasValue(20L);
            // 20 over what 10/s allows in a 10 s window; the first relay's 7/s would say 20 / 70.
            assertThat(run.summary().orElseThrow().path("windowShare").asDouble()).isEqualTo(0.2);
        }
    }

    private static SmtpSettings smtp(ScriptedSmtpServer server) {
        return SmtpSettings.of("127.0.0.1", server.port(), TlsMode.NONE, "mailrun.test")
                .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5)).withConnections(2);
    }
}
