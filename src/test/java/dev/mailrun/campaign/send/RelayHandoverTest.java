package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.store.PaceTailTable;
import dev.mailrun.campaign.store.RelayShareTable;
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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A run joining a relay another worker's run holds: it goes once that run has handed over, counting
 * the sends of the last second it handed over, and without a handover it still goes after a while.
 */
class RelayHandoverTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Instant SLOT = Instant.parse("2026-11-21T10:00:00Z");
    private static final String OTHER = "another worker's run";

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void a_joining_run_goes_once_the_holder_hands_over_and_counts_what_it_handed_over() throws Exception {
        String relay = "relay-handed-over";
        hold(relay);
        AtomicLong handedOverAt = new AtomicLong();
        // The other worker's run, at its next renewal: finds the joiner and hands over five sends
        // made just now — its whole half of the relay's 10/s for the coming second.
        Thread otherWorker = new Thread(() -> {
            try {
                String joiner = awaitJoiner(relay);
                Transactions.inTransaction(db.dataSource(), c -> {
                    new PaceTailTable().handOver(c, OTHER, List.of(new PaceTailTable.Handover(relay, joiner, new long[5])));
                    return null;
                });
                handedOverAt.set(System.nanoTime());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        otherWorker.start();
        // The run's clock stands still and its waits take real time: it gives up on a handover only
        // after 2.1 s of the clock, which never pass here.
        SettableClock clock = new SettableClock(SLOT);
        ConcurrentLinkedQueue<Long> acceptedAt = new ConcurrentLinkedQueue<>();
        CampaignStatus status = send(relay, clock, TestTiming.realTime(clock), acceptedAt);
        otherWorker.join();

        assertThat(status).isEqualTo(CampaignStatus.COMPLETED);
        assertThat(acceptedAt).hasSize(10);
        // The five sends handed over fill this run's half for a second: nothing of it before then
        // (a lower bound only: a slow machine makes it later, never earlier).
        long first = acceptedAt.stream().mapToLong(Long::longValue).min().orElseThrow();
        assertThat(first - handedOverAt.get()).as("ns from the handover to the first message")
                .isGreaterThanOrEqualTo(Duration.ofMillis(900).toNanos());
        assertThat(handoversTo(relay)).as("counted, then deleted by the joiner").isZero();
    }

    @Test
    void a_holder_that_never_hands_over_holds_a_joining_run_back_only_for_a_while() throws Exception {
        String relay = "relay-never-handed-over";
        hold(relay);
        SettableClock clock = new SettableClock(SLOT);
        ConcurrentLinkedQueue<Long> acceptedAt = new ConcurrentLinkedQueue<>();
        // A wait moves the clock on at once: the run gives up after 2.1 s of it, then starts as if
        // a whole second had just been sent at its share.
        CampaignStatus status = send(relay, clock, TestTiming.on(clock, System::nanoTime), acceptedAt);

        assertThat(status).isEqualTo(CampaignStatus.COMPLETED);
        assertThat(acceptedAt).hasSize(10);
    }

    /** Another worker's run holds the relay. */
    private static void hold(String relay) throws Exception {
        Transactions.inTransaction(db.dataSource(),
                c -> new RelayShareTable().renew(c, relay, OTHER, Duration.ofMinutes(1)));
    }

    /** Sends a campaign of ten through {@code relay} at 10/s in one run; its status after the run. */
    private static CampaignStatus send(String relay, SettableClock clock, dev.mailrun.campaign.send.scope.Timing timing,
                             ConcurrentLinkedQueue<Long> acceptedAt) throws Exception {
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().onMessage(cmd -> {
            acceptedAt.add(System.nanoTime());
            return Reply.ok();
        }).start()) {
            TemplateLoader templates = new TemplateLoader(Path.of("templates"));
            SmtpSettings smtpSettings = SmtpSettings.of("127.0.0.1", smtp.port(), TlsMode.NONE, "mailrun.test")
                    .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5));
            SendTask task = new SendTask(SendDependenciesFixtures.oneRelay(db.dataSource(), templates, smtpSettings,
                    Secret.of("message-id-key-for-tests-0123456789"), new FixedLinks(),
                    SendSettingsFixtures.defaults(relay, 10), () -> new Random(42), timing));
            TaskStore tasks = new TaskStore(db.dataSource());
            Campaigns campaigns = new Campaigns(db.dataSource(), tasks, templates, clock, INTERVAL);
            try (Scheduler scheduler = new Scheduler(db.dataSource(), HandlerRegistry.of(task),
                    SchedulerConfig.defaults("w-" + relay), clock)) {
                long id = campaigns.create(new NewCampaign("Handover " + relay, "welcome", "news@sender.example",
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
                CampaignFixtures.recipients(db.dataSource(), id, 10);
                campaigns.start(id);
                scheduler.tick();
                return campaigns.get(id).status();
            }
        }
    }

    /** The run token of the first holder of {@code relay} other than {@link #OTHER}, once there is one. */
    private static String awaitJoiner(String relay) {
        return await("a run joins " + relay).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5))
                .until(() -> joiner(relay), Optional::isPresent).get();
    }

    private static Optional<String> joiner(String relay) throws SQLException {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT holder FROM relay_share WHERE relay = ? AND holder <> ?")) {
            ps.setString(1, relay);
            ps.setString(2, OTHER);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    private static long handoversTo(String relay) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT COUNT(*) FROM pace_tail WHERE name = ? AND holder = ?")) {
            ps.setString(1, relay);
            ps.setString(2, OTHER);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
