package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.mail.smtp.WarmConnections;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.RunOutcome;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.FixedLinks;
import dev.mailrun.testing.JumpingClock;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.SendDependenciesFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.TestTiming;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A worker's runs of a campaign, one after the other through the real scheduler, sending task and
 * database to a real SMTP server over one connection at most: the next run takes over the session
 * the last one left open ({@code smtp.keep-warm}) when it starts within that time.
 */
class WarmRunsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(3);
    private static final Duration KEEP_WARM = Duration.ofSeconds(10);
    private static final Instant SLOT = Instant.parse("2026-11-21T10:00:00Z");

    @Test
    void two_consecutive_runs_on_one_worker_send_over_one_tcp_connection() throws Exception {
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().start()) {
            List<TaskRun> runs = twoRuns(smtp, INTERVAL, KEEP_WARM);

            assertThat(runs).hasSize(2).allSatisfy(r -> assertThat(r.summary().orElseThrow().path("sent").asLong()).isPositive());
            assertThat(smtp.connectionCount()).isEqualTo(1);
            assertThat(smtp.transcripts().get(0)).filteredOn(line -> line.startsWith("EHLO")).hasSize(1);
        }
    }

    @Test
    void a_run_starting_later_than_keep_warm_after_the_last_one_connects_again() throws Exception {
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().start()) {
            // The first run ends by its deadline, a second before the next slot: its session was parked
            // 13 s before this slot.
            List<TaskRun> runs = twoRuns(smtp, INTERVAL.multipliedBy(5), KEEP_WARM);

            assertThat(runs).hasSize(2).allSatisfy(r -> assertThat(r.summary().orElseThrow().path("sent").asLong()).isPositive());
            assertThat(smtp.connectionCount()).isEqualTo(2);
            assertThat(smtp.messageConnections()).contains(1, 2);
        }
    }

    @Test
    void with_keep_warm_off_each_run_connects_again() throws Exception {
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().start()) {
            twoRuns(smtp, INTERVAL, Duration.ZERO);

            assertThat(smtp.connectionCount()).isEqualTo(2);
        }
    }

    /**
     * A run at {@link #SLOT} and one {@code apart} later (a whole number of intervals, so that the tick
     * falls on a slot), the campaign's recipients more than both can send.
     */
    private static List<TaskRun> twoRuns(ScriptedSmtpServer smtp, Duration apart, Duration keepWarm) throws Exception {
        JumpingClock clock = JumpingClock.startingAt(SLOT.minusSeconds(30));
        OneRelaySettings settings = SendSettingsFixtures.defaults("relay-warm", 20);
        SmtpSettings relay = SmtpSettings.of("127.0.0.1", smtp.port(), TlsMode.NONE, "mailrun.test")
                .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5))
                .withConnections(1, 1);
        TemplateLoader templates = new TemplateLoader(Path.of("templates"));
        SchedulerConfig worker = SchedulerConfig.defaults("w1")
                .withSafetyMargin(SchedulerConfig.SafetyMargin.fixed(Duration.ofSeconds(1)))
                .withOverlapWait(Duration.ofSeconds(5));
        try (WarmConnections warm = WarmConnections.keptFor(keepWarm, clock);
             Scheduler s = new Scheduler(db.dataSource(), HandlerRegistry.of(new SendTask(SendDependenciesFixtures.withWarm(
                     SendDependenciesFixtures.oneRelay(db.dataSource(), templates, relay,
                             Secret.of("message-id-key-for-tests-0123456789"), new FixedLinks(), settings,
                             () -> new Random(42), TestTiming.realTime(clock)), warm))), worker, clock)) {
            TaskStore tasks = new TaskStore(db.dataSource());
            Campaigns campaigns = new Campaigns(db.dataSource(), tasks, templates, clock, INTERVAL);
            long id = campaigns.create(new NewCampaign("Warm", "welcome", "news@sender.example", Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
            CampaignFixtures.recipients(db.dataSource(), id, 500);
            campaigns.start(id);

            clock.jumpTo(SLOT);
            s.tick();
            clock.jumpTo(SLOT.plus(apart));
            s.tick();

            return tasks.recentRuns(SendTask.taskName(id), 10).stream()
                    .filter(r -> r.outcome() != RunOutcome.MISFIRED).toList();
        }
    }
}
