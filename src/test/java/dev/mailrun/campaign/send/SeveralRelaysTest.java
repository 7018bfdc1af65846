package dev.mailrun.campaign.send;

import dev.mailrun.testing.StatusCounts;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.report.CampaignReport;
import dev.mailrun.campaign.report.CampaignReports;
import dev.mailrun.campaign.send.route.Relay;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.store.RelayStateTable;
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
import dev.mailrun.testing.SendDependenciesFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.testing.TestTiming;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Campaigns sent through two relays, each a scripted SMTP server on a real socket, with the real
 * scheduler, sending task and database: the weighted split, failover when a relay stops, its probe
 * after the back-off, and a relay refusing AUTH. The clock stands still during a run and is moved
 * between runs, so back-offs pass without waiting.
 */
class SeveralRelaysTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    /** How long a relay marked down stays down the first time (30 s, doubling each time after: route.BackOff). */
    private static final Duration FIRST_BACK_OFF = Duration.ofSeconds(30);

    @Test
    void a_70_30_split_holds_within_two_points_over_5000_recipients_and_each_row_records_its_relay() throws Exception {
        try (ScriptedSmtpServer primary = ScriptedSmtpServer.builder().start();
             ScriptedSmtpServer backup = ScriptedSmtpServer.builder().start();
             Stack s = new Stack(relays("w-primary", primary, "w-backup", backup, Optional.empty()))) {
            long id = s.campaign("w-primary:70,w-backup:30", 5_000);

            s.tickUntilDone(id);

            assertThat(s.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            Map<String, Integer> viaPrimary = PacingFixtures.addressees(primary);
            Map<String, Integer> viaBackup = PacingFixtures.addressees(backup);
            assertThat(viaPrimary.values()).containsOnly(1);
            assertThat(viaBackup.values()).containsOnly(1);
            assertThat(viaPrimary.keySet()).doesNotContainAnyElementsOf(viaBackup.keySet());
            assertThat(viaPrimary.size() + viaBackup.size()).isEqualTo(5_000);
            double share = viaPrimary.size() / 5_000.0;
            assertThat(share).isBetween(0.68, 0.72);
            // The rows say the same as the servers, in the relay column the results were written with.
            assertThat(rowsByRelay(id, "sent")).containsExactlyInAnyOrderEntriesOf(
                    Map.of("w-primary", (long) viaPrimary.size(), "w-backup", (long) viaBackup.size()));
            assertThat(viaPrimary.keySet()).allSatisfy(a -> assertThat(relayOf(id, a)).isEqualTo("w-primary"));
            CampaignReport report = s.reports.report(id);
            assertThat(report.relays()).extracting(CampaignReport.RelayLine::relay, CampaignReport.RelayLine::weight,
                            CampaignReport.RelayLine::sent, CampaignReport.RelayLine::state)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("w-primary", Optional.of(70), (long) viaPrimary.size(), "up"),
                            org.assertj.core.groups.Tuple.tuple("w-backup", Optional.of(30), (long) viaBackup.size(), "up"));
        }
    }

    @Test
    void a_primary_that_stops_mid_run_fails_over_to_the_backup_and_takes_traffic_again_after_its_back_off() throws Exception {
        AtomicBoolean primaryStopped = new AtomicBoolean();
        AtomicInteger primaryMessages = new AtomicInteger();
        try (ScriptedSmtpServer primary = ScriptedSmtpServer.builder()
                     // Stopped: connections are dropped at the greeting, and open ones before MAIL is accepted,
                     // so nothing that reaches the server after the stop is ever delivered by it.
                     .greeting(cmd -> primaryStopped.get() ? Reply.drop() : Reply.of(220, "primary ready"))
                     .on("MAIL", cmd -> primaryStopped.get() ? Reply.drop() : Reply.ok())
                     .onMessage(cmd -> {
                         if (primaryMessages.incrementAndGet() == 300) {
                             primaryStopped.set(true);
                         }
                         return Reply.ok();
                     }).start();
             ScriptedSmtpServer backup = ScriptedSmtpServer.builder().start();
             Stack s = new Stack(relays("f-primary", primary, "f-backup", backup, Optional.empty()))) {
            // A plain list: the primary takes everything, the backup stands in for it.
            long id = s.campaign("f-primary,f-backup", 2_000);

            s.scheduler.tick();

            // One run: the primary's failure did not end it, the backup carried on.
            assertThat(s.campaigns.get(id).status()).isEqualTo(CampaignStatus.RUNNING);
            List<TaskRun> runs = s.tasks.recentRuns(SendTask.taskName(id), 10);
            assertThat(runs).hasSize(1);
            Map<String, Integer> viaPrimary = PacingFixtures.addressees(primary);
            Map<String, Integer> viaBackup = PacingFixtures.addressees(backup);
            // The 300th message stops it; messages already past MAIL on its other connections still land.
            assertThat(viaPrimary.size()).isBetween(300, 303);
            assertThat(viaPrimary.keySet()).doesNotContainAnyElementsOf(viaBackup.keySet());
            assertThat(viaBackup.values()).containsOnly(1);
            // Nobody lost: sent once, or waiting for a retry — only the messages in flight on the primary's
            // connections when it stopped, which the connections tried once more on a new connection.
            long retry = count(id, "retry");
            assertThat(retry).isBetween(0L, 4L);
            assertThat(viaPrimary.size() + viaBackup.size() + retry).isEqualTo(2_000);
            assertThat(count(id, "sent")).isEqualTo(viaPrimary.size() + viaBackup.size());
            assertThat(count(id, "unknown")).isZero();
            assertThat(count(id, "pending") + CampaignFixtures.sendingCount(db.dataSource(), id)).isZero();
            // Down for the first back-off, measured on the run's clock.
            RelayStateTable.State state = relayState("f-primary");
            assertThat(state.downUntil()).hasValue(T0.plus(FIRST_BACK_OFF));
            assertThat(state.downs()).isEqualTo(1);
            CampaignReport.RelayLine line = s.reports.report(id).relays().get(0);
            assertThat(line.state()).isEqualTo("down until " + T0.plus(FIRST_BACK_OFF));
            assertThat(line.reason()).get().asString().contains("cannot be reached");

            // Before the back-off ends the primary gets nothing, even once it is back.
            primaryStopped.set(false);
            addRecipients(id, 2_000, 200);
            s.clock.set(T0.plus(FIRST_BACK_OFF).minusSeconds(5));
            s.scheduler.tick();
            assertThat(PacingFixtures.addressees(primary)).hasSize(viaPrimary.size());
            assertThat(count(id, "sent")).isEqualTo(2_200);
            assertThat(count(id, "retry")).isZero();

            assertThat(s.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);

            // After it, one probe, then the primary takes the traffic again — here for another campaign
            // on the same route: a relay's state is shared by every campaign and worker. The probe's batch
            // was dealt while the primary was still down; every batch after it goes to the primary.
            s.clock.set(T0.plus(FIRST_BACK_OFF).plusSeconds(1));
            long next = s.campaign("f-primary,f-backup", 0);
            addRecipients(next, 2_200, 400);
            s.campaigns.start(next);
            int backupBefore = PacingFixtures.addressees(backup).size();
            s.scheduler.tick();
            assertThat(s.campaigns.get(next).status()).isEqualTo(CampaignStatus.COMPLETED);
            int primaryNew = PacingFixtures.addressees(primary).size() - viaPrimary.size();
            assertThat(primaryNew).isGreaterThanOrEqualTo(400 - 100 + 1);
            assertThat(primaryNew + PacingFixtures.addressees(backup).size() - backupBefore).isEqualTo(400);
            assertThat(relayState("f-primary").downUntil()).isEmpty();
            assertThat(relayState("f-primary").downs()).isZero();
            Map<String, Integer> all = new HashMap<>(PacingFixtures.addressees(primary));
            PacingFixtures.addressees(backup).forEach((a, n) -> all.merge(a, n, Integer::sum));
            assertThat(all).hasSize(2_600);
            assertThat(all.values()).as("nobody mailed twice").containsOnly(1);
        }
    }

    @Test
    void a_relay_refusing_auth_is_marked_down_and_the_campaign_goes_on_through_the_other() throws Exception {
        try (ScriptedSmtpServer primary = ScriptedSmtpServer.builder()
                     .on("AUTH", cmd -> Reply.of(535, "5.7.8 authentication credentials invalid")).start();
             ScriptedSmtpServer backup = ScriptedSmtpServer.builder().start();
             Stack s = new Stack(relays("a-primary", primary, "a-backup", backup, Optional.of("mailer")))) {
            long id = s.campaign("a-primary:50,a-backup:50", 400);

            s.scheduler.tick();

            assertThat(s.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            assertThat(s.campaigns.get(id).pauseReason()).isEmpty();
            assertThat(primary.messages()).isEmpty();
            assertThat(PacingFixtures.addressees(backup)).hasSize(400);
            assertThat(count(id, "sent")).isEqualTo(400);
            assertThat(rowsByRelay(id, "sent")).containsExactlyEntriesOf(Map.of("a-backup", 400L));
            RelayStateTable.State state = relayState("a-primary");
            assertThat(state.downUntil()).hasValue(T0.plus(FIRST_BACK_OFF));
            assertThat(state.reason()).get().asString().contains("authentication failed");
            CampaignReport.RelayLine line = s.reports.report(id).relays().get(0);
            assertThat(line.relay()).isEqualTo("a-primary");
            assertThat(line.state()).startsWith("down until");
            assertThat(line.sent()).isZero();
        }
    }

    @Test
    void a_single_relay_refusing_auth_still_pauses_its_campaign() throws Exception {
        try (ScriptedSmtpServer only = ScriptedSmtpServer.builder()
                     .on("AUTH", cmd -> Reply.of(535, "5.7.8 authentication credentials invalid")).start();
             ScriptedSmtpServer unused = ScriptedSmtpServer.builder().start();
             Stack s = new Stack(relays("p-only", only, "p-unused", unused, Optional.of("mailer")))) {
            long id = s.campaign("p-only", 50);

            s.scheduler.tick();

            assertThat(s.campaigns.get(id).status()).isEqualTo(CampaignStatus.PAUSED);
            assertThat(s.campaigns.get(id).pauseReason()).get().asString().contains("authentication failed");
            assertThat(count(id, "pending")).isEqualTo(50);
            assertThat(unused.messages()).isEmpty();
        }
    }

    /** Two relays on the scripted servers; with {@code user}, the first asks for AUTH. */
    private static Relays relays(String first, ScriptedSmtpServer a, String second, ScriptedSmtpServer b, Optional<String> user) {
        SmtpSettings sa = settings(a);
        if (user.isPresent()) {
            sa = sa.withAuth(user.get(), Secret.of("not-the-password"));
        }
        Map<String, Relay> byName = new LinkedHashMap<>();
        byName.put(first, new Relay(first, sa));
        byName.put(second, new Relay(second, settings(b)));
        return new Relays(byName, RelayRoute.parse(first + "," + second));
    }

    private static SmtpSettings settings(ScriptedSmtpServer server) {
        return SmtpSettings.of("127.0.0.1", server.port(), TlsMode.NONE, "mailrun.test")
                .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5)).withConnections(4);
    }

    /** The real sending stack on a clock that stands still until the test moves it. */
    private static final class Stack implements AutoCloseable {
        final SettableClock clock = new SettableClock(T0);
        final TaskStore tasks = new TaskStore(db.dataSource());
        final Campaigns campaigns;
        final Scheduler scheduler;
        final CampaignReports reports;
        private final Relays relays;

        Stack(Relays relays) {
            this.relays = relays;
            TemplateLoader templates = new TemplateLoader(Path.of("templates"));
            SendSettings settings = SendSettingsFixtures.builder().batchMax(100)
                    .retries(5, Duration.ofSeconds(1)).build();
            SendTask task = new SendTask(SendDependenciesFixtures.relays(db.dataSource(), templates, settings,
                    TestTiming.realTime(clock), relays));
            campaigns = new Campaigns(db.dataSource(), tasks, templates, clock, INTERVAL);
            scheduler = new Scheduler(db.dataSource(), HandlerRegistry.of(task), SchedulerConfig.defaults("w1"), clock);
            reports = new CampaignReports(db.dataSource(), tasks, clock, settings, relays);
        }

        long campaign(String route, int recipients) throws Exception {
            RelayRoute r = RelayRoute.parse(route);
            assertThat(relays.unknownIn(r)).isEmpty();
            long id = campaigns.create(new NewCampaign("Relays " + route, "welcome", "news@sender.example", Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), Optional.of(r));
            if (recipients > 0) {
                addRecipients(id, 0, recipients);
                campaigns.start(id);
            }
            return id;
        }

        void tickUntilDone(long id) throws Exception {
            for (int i = 0; i < 10 && campaigns.get(id).status() != CampaignStatus.COMPLETED; i++) {
                scheduler.tick();
                clock.set(clock.instant().plus(INTERVAL));
            }
        }

        @Override
        public void close() {
            scheduler.close();
        }
    }

    /** Recipients r{from} … r{from+n-1}, pending, in one batched insert. */
    private static void addRecipients(long campaignId, int from, int n) throws Exception {
        Transactions.inTransaction(db.dataSource(), c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO recipient (campaign_id, email, name, status, updated_at)
                    VALUES (?, ?, ?, 'pending', UTC_TIMESTAMP(3))""")) {
                for (int i = from; i < from + n; i++) {
                    ps.setLong(1, campaignId);
                    ps.setString(2, "r" + i + "@list.example");
                    ps.setString(3, "Reader " + i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            StatusCounts.inserted(c, campaignId, n);
            return null;
        });
    }

    private static long count(long campaignId, String status) throws Exception {
        return CampaignFixtures.recipientCount(db.dataSource(), campaignId, status);
    }

    private static Map<String, Long> rowsByRelay(long campaignId, String status) throws Exception {
        Map<String, Long> by = new HashMap<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT relay, COUNT(*) FROM recipient WHERE campaign_id = ? AND status = ? GROUP BY relay")) {
            ps.setLong(1, campaignId);
            ps.setString(2, status);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    by.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return by;
    }

    private static String relayOf(long campaignId, String email) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT relay FROM recipient WHERE campaign_id = ? AND email = ?")) {
            ps.setLong(1, campaignId);
            ps.setString(2, email);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private static RelayStateTable.State relayState(String relay) throws Exception {
        return Transactions.inTransaction(db.dataSource(), c -> new RelayStateTable().readAll(c, List.of(relay)).stream().findFirst()
                .orElse(RelayStateTable.State.up(relay)));
    }
}
