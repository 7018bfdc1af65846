package dev.mailrun.campaign.send;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.report.CampaignReport;
import dev.mailrun.campaign.report.CampaignReports;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.RunOutcome;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.FixedLinks;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.SendDependenciesFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.TestTiming;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A campaign that pauses itself says so in a warning line, and the ticks that find it paused
 * afterwards do not push its real runs out of the last runs status shows.
 */
class SelfPauseTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    @TempDir
    Path templatesDir;

    @Test
    void a_template_no_longer_stored_pauses_with_a_warning_and_later_ticks_leave_the_last_runs_alone()
            throws Exception {
        String name = "self-pause-" + System.nanoTime() % 100000;
        copyTemplate("welcome", name);
        SettableClock clock = new SettableClock(T0);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        Logger sendTaskLog = (Logger) LoggerFactory.getLogger(SendTask.class);
        logged.start();
        sendTaskLog.addAppender(logged);
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().start()) {
            TemplateLoader templates = new TemplateLoader(templatesDir);
            OneRelaySettings settings = SendSettingsFixtures.builder().batchMax(100).through("relay-self-pause", 0);
            SendTask task = new SendTask(SendDependenciesFixtures.oneRelay(db.dataSource(), templates,
                    SmtpSettings.of("127.0.0.1", smtp.port(), TlsMode.NONE, "mailrun.test"),
                    Secret.of("message-id-key-for-tests-0123456789"), new FixedLinks(), settings, () -> new Random(7),
                    TestTiming.realTime(clock)));
            TaskStore tasks = new TaskStore(db.dataSource());
            Campaigns campaigns = new Campaigns(db.dataSource(), tasks, templates, clock, INTERVAL);
            CampaignReports reports = new CampaignReports(db.dataSource(), tasks, clock, settings.send(), task.dependencies().relays());
            try (Scheduler scheduler = new Scheduler(db.dataSource(), HandlerRegistry.of(task),
                    SchedulerConfig.defaults("w1"), clock)) {
                long id = campaigns.create(new NewCampaign("Self pause", name, "news@sender.example", Optional.empty(),
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
                CampaignFixtures.recipients(db.dataSource(), id, 5);
                campaigns.start(id);
                // A campaign from before templates were stored, whose template the upgrade found nowhere.
                Transactions.inTransaction(db.dataSource(), c -> {
                    try (PreparedStatement ps = c.prepareStatement("UPDATE campaign SET template_version = NULL WHERE id = ?")) {
                        ps.setLong(1, id);
                        ps.executeUpdate();
                    }
                    try (PreparedStatement ps = c.prepareStatement("DELETE FROM campaign_content_change WHERE campaign_id = ?")) {
                        ps.setLong(1, id);
                        ps.executeUpdate();
                    }
                    return null;
                });
                new TemplateStore(db.dataSource(), clock, TemplateStore.DEFAULT_MAX_BYTES).delete(name, 1);

                scheduler.tick();

                assertThat(campaigns.get(id).status()).isEqualTo(CampaignStatus.PAUSED);
                String reason = campaigns.get(id).pauseReason().orElseThrow();
                assertThat(reason).isEqualTo("template " + name + " is not stored in the database: import it (template import), "
                        + "then resume the campaign").doesNotContain(":0:0");
                assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.WARN)
                        .extracting(ILoggingEvent::getFormattedMessage)
                        .containsExactly("Campaign " + id + " paused: " + reason);
                assertThat(smtp.messages()).isEmpty();

                for (int i = 1; i <= 15; i++) {
                    clock.set(T0.plus(INTERVAL.multipliedBy(i)));
                    scheduler.tick();
                }

                List<TaskRun> history = tasks.recentRuns(SendTask.taskName(id), 100);
                assertThat(history).hasSize(16);
                assertThat(history.subList(0, 15)).extracting(TaskRun::outcome).containsOnly(RunOutcome.IDLE);
                List<CampaignReport.RunLine> shown = reports.report(id).runs();
                assertThat(shown).as("the run that paused, not the ticks that found it paused").singleElement()
                        .satisfies(run -> assertThat(run.outcome()).isEqualTo("succeeded"));
                assertThat(campaigns.runs(id, 20)).singleElement()
                        .satisfies(run -> assertThat(run.startedAt()).isEqualTo(history.get(15).startedAt()));
                assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.WARN).hasSize(1);
            }
        } finally {
            sendTaskLog.detachAppender(logged);
        }
    }

    private void copyTemplate(String from, String name) throws Exception {
        Path to = Files.createDirectories(templatesDir.resolve(name));
        try (Stream<Path> files = Files.list(Path.of("templates", from))) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
    }
}
