package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.send.pace.RelayShare;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.store.RelayShareTable;
import dev.mailrun.db.SqlTime;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.FixedLinks;
import dev.mailrun.testing.SendDependenciesFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.TestTiming;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Several holders of one relay, seen from one run: its share, and the timebox's rate, follow them mid-run. */
class SharedRelayTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Instant SLOT = Instant.parse("2026-11-21T10:00:00Z");
    private static final String OTHER_HOLDER = "another worker's run";

    @Test
    void a_second_holder_joining_mid_run_lowers_the_rate_the_timebox_predicts_with() throws Exception {
        // The run starts 0.575 s before its deadline on a clock that stands still: after the 50 ms
        // batch overhead and the 25 ms a message needs left to start, 0.5 s of items fit — 100 at
        // the relay's 200/s alone, 50 at a half share.
        SettableClock clock = new SettableClock(SLOT);
        AtomicLong nanoTime = new AtomicLong();
        String relay = "relay-joined-mid-run";
        AtomicInteger messages = new AtomicInteger();
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().onMessage(cmd -> {
            if (messages.incrementAndGet() == 1) {
                // Mid-batch: another worker joins, the run's share falls due, and the first reply
                // waits for the renewal (one connection: the batch waits with it).
                Instant renewedUntil = shareExpiry(relay);
                joinAsAnotherHolder(relay);
                nanoTime.addAndGet(RelayShare.RENEWAL.toNanos());
                await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10)).until(() -> shareExpiry(relay).isAfter(renewedUntil));
            }
            return Reply.ok();
        }).start()) {
            TemplateLoader templates = new TemplateLoader(Path.of("templates"));
            SmtpSettings smtpSettings = SmtpSettings.of("127.0.0.1", smtp.port(), TlsMode.NONE, "mailrun.test")
                    .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5)).withConnections(1);
            SendTask task = new SendTask(SendDependenciesFixtures.oneRelay(db.dataSource(), templates, smtpSettings,
                    Secret.of("message-id-key-for-tests-0123456789"), new FixedLinks(),
                    SendSettingsFixtures.defaults(relay, 200), () -> new Random(42), TestTiming.on(clock, nanoTime::get)));
            TaskStore tasks = new TaskStore(db.dataSource());
            Campaigns campaigns = new Campaigns(db.dataSource(), tasks, templates, clock, INTERVAL);
            try (Scheduler scheduler = new Scheduler(db.dataSource(), HandlerRegistry.of(task),
                    SchedulerConfig.defaults("w1"), clock)) {
                long id = campaigns.create(new NewCampaign("Joined", "welcome", "news@sender.example", Optional.empty(),
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
                CampaignFixtures.recipients(db.dataSource(), id, 250);
                campaigns.start(id);
                calibrate(SendTask.taskName(id), relay);
                clock.set(SLOT.plus(INTERVAL).minus(Duration.ofSeconds(1)).minus(SendSettings.BATCH_OVERHEAD).minusMillis(525));   // deadline: slot + 9 s

                scheduler.tick();

                assertThat(campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
                assertThat(smtp.messages()).hasSize(250);
                List<TaskRun> runs = tasks.recentRuns(SendTask.taskName(id), 10);
                assertThat(runs).hasSize(1);
                // 100 alone, then 50, 50, 50 at half the relay, and the claim that finds the queue empty.
                // Had the timebox kept the rate it started with: 100, 100, 50 and the empty claim.
                assertThat(runs.get(0).batches()).hasValue(5L);
                assertThat(runs.get(0).items()).hasValue(250L);
            }
        }
    }

    /** When the run's own share of {@code relay} expires, as its last renewal set it. */
    private static Instant shareExpiry(String relay) {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT expires_at FROM relay_share WHERE relay = ? AND holder <> ?")) {
            ps.setString(1, relay);
            ps.setString(2, OTHER_HOLDER);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return SqlTime.get(rs, 1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void joinAsAnotherHolder(String relay) {
        try {
            Transactions.inTransaction(db.dataSource(),
                    c -> new RelayShareTable().renew(c, relay, OTHER_HOLDER, Duration.ofMinutes(1)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A stored estimator with free items and a cap above the batches: the rate alone sizes them. */
    private static void calibrate(String taskName, String relay) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("""
                UPDATE task SET metadata = JSON_SET(metadata, '$.timebox',
                    JSON_OBJECT('samples', 40, 'perItemMillis', 0, 'deviationMillis', 0, 'batchCap', 500),
                    '$.messageMillis', JSON_OBJECT(?, 1))
                WHERE name = ?""")) {
            // The relay's time per message is known from an earlier run: the pool keeps its least
            // start budget (25 ms) free, which the timebox adds to every batch.
            ps.setString(1, relay);
            ps.setString(2, taskName);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }
}
