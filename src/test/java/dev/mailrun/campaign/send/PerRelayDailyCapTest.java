package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.report.CampaignReports;
import dev.mailrun.campaign.send.policy.DailyCap;
import dev.mailrun.campaign.send.policy.DailyQuota;
import dev.mailrun.campaign.send.route.Relay;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.store.DailyCountTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
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
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The daily cap of each relay of a route, through two scripted SMTP servers on real sockets, the
 * real scheduler, sending task and database, with two workers and a restart; the days move on a
 * settable clock that stands still during a run.
 */
class PerRelayDailyCapTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofMinutes(5);
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final Pattern TO = Pattern.compile("(?m)^To: .*<([^>]+)>");

    @Test
    void two_workers_and_a_restart_give_each_relay_exactly_its_cap_on_each_day() throws Exception {
        DailyCap cap = new DailyCap(OptionalLong.of(30), List.of(), Optional.empty(), Optional.empty(), BERLIN);
        // Monday 23 November 2026, 10:00 in Berlin.
        SettableClock clock = SettableClock.at("2026-11-23T09:00:00Z");
        try (ScriptedSmtpServer a = ScriptedSmtpServer.builder().start();
             ScriptedSmtpServer b = ScriptedSmtpServer.builder().start()) {
            Relays relays = relays("day-a", a, "day-b", b, "day-a:70,day-b:30");
            Stack w1 = new Stack(relays, cap, clock, "w1");
            Stack w2 = new Stack(relays, cap, clock, "w2");
            long c1 = w1.campaign("Per relay A", 100);
            long c2 = w1.campaign("Per relay B", 100);

            SendRuns.tickTogether(w1.scheduler, w2.scheduler);
            clock.advance(INTERVAL);
            SendRuns.tickTogether(w1.scheduler, w2.scheduler);
            // The 70:30 split would give day-b 18 of 60: once day-a is full its share goes to day-b.
            assertThat(a.messages()).as("day 1 through day-a").hasSize(30);
            assertThat(b.messages()).as("day 1 through day-b").hasSize(30);
            assertThat(count("day-a", LocalDate.parse("2026-11-23"))).isEqualTo(30);
            assertThat(count("day-b", LocalDate.parse("2026-11-23"))).isEqualTo(30);
            assertThat(SendRuns.endReasons(w1.tasks, c1, c2)).contains(RunEndReason.DAILY_CAP);

            // A restart, the same day: the counts are in the database, not in a worker.
            w1.close();
            w2.close();
            w1 = new Stack(relays, cap, clock, "w1");
            w2 = new Stack(relays, cap, clock, "w2");
            clock.set(Instant.parse("2026-11-23T22:55:00Z"));   // 23:55 in Berlin, still Monday there
            SendRuns.tickTogether(w1.scheduler, w2.scheduler);
            assertThat(a.messages().size() + b.messages().size()).as("after the restart, same day").isEqualTo(60);
            assertThat(w1.reports.report(c1).heldBackBy()).containsExactly(
                    "daily cap of relay day-a reached (30 of 30 on 2026-11-23 Europe/Berlin, resets at 2026-11-23T23:00:00Z)",
                    "daily cap of relay day-b reached (30 of 30 on 2026-11-23 Europe/Berlin, resets at 2026-11-23T23:00:00Z)");

            // Midnight in Berlin: both relays have a new day's volume.
            clock.set(Instant.parse("2026-11-23T23:00:00Z"));
            SendRuns.tickTogether(w1.scheduler, w2.scheduler);
            clock.advance(INTERVAL);
            SendRuns.tickTogether(w1.scheduler, w2.scheduler);
            assertThat(a.messages()).as("day 2 through day-a").hasSize(60);
            assertThat(b.messages()).as("day 2 through day-b").hasSize(60);
            assertThat(count("day-a", LocalDate.parse("2026-11-24"))).isEqualTo(30);
            assertThat(count("day-b", LocalDate.parse("2026-11-24"))).isEqualTo(30);

            // One message per sent row (nobody twice), each row recording the relay that counted it.
            assertThat(sentByRelay(c1, c2)).containsExactlyInAnyOrderEntriesOf(Map.of("day-a", 60L, "day-b", 60L));
            assertThat(recipients(c1, "pending") + recipients(c2, "pending")).isEqualTo(80);
            for (long id : new long[] {c1, c2}) {
                if (w1.campaigns.get(id).status() == CampaignStatus.RUNNING) {
                    w1.campaigns.cancel(id);   // the class shares one database: later tests must not tick them
                }
            }
            w1.close();
            w2.close();
        }
    }

    @Test
    void a_relay_at_its_cap_leaves_the_rest_of_the_days_volume_to_the_other() throws Exception {
        DailyCap cap = new DailyCap(OptionalLong.of(25), List.of(), Optional.empty(), Optional.empty(), ZoneId.of("UTC"));
        SettableClock clock = SettableClock.at("2026-11-23T09:00:00Z");
        LocalDate day = LocalDate.parse("2026-11-23");
        try (ScriptedSmtpServer a = ScriptedSmtpServer.builder().start();
             ScriptedSmtpServer b = ScriptedSmtpServer.builder().start()) {
            Stack w = new Stack(relays("full-a", a, "full-b", b, "full-a:50,full-b:50"), cap, clock, "w1");
            // Another campaign used up full-a's day already.
            Transactions.inTransaction(db.dataSource(), c -> {
                DailyCountTable t = new DailyCountTable();
                t.lock(c, "full-a", day);
                t.add(c, "full-a", day, 25);
                return null;
            });
            long id = w.campaign("One relay full", 60);
            assertThat(w.reports.report(id).heldBackBy()).containsExactly(
                    "daily cap of relay full-a reached (25 of 25 on 2026-11-23 UTC, resets at 2026-11-24T00:00:00Z)");

            w.scheduler.tick();

            assertThat(a.messages()).as("through the relay at its cap").isEmpty();
            assertThat(b.messages()).as("through the other").hasSize(25);
            assertThat(count("full-b", day)).isEqualTo(25);
            assertThat(count("full-a", day)).isEqualTo(25);
            assertThat(SendRuns.endReasons(w.tasks, id)).containsExactly(RunEndReason.DAILY_CAP);
            assertThat(w.reports.report(id).heldBackBy()).hasSize(2);

            // The next day both take their part again, by weight.
            clock.set(Instant.parse("2026-11-24T09:00:00Z"));
            w.scheduler.tick();
            clock.advance(INTERVAL);
            w.scheduler.tick();
            assertThat(a.messages().size() + b.messages().size()).isEqualTo(60);
            assertThat(count("full-a", day.plusDays(1)) + count("full-b", day.plusDays(1))).isEqualTo(35);
            assertThat(a.messages().size()).isBetween(16, 19);
            assertThat(w.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            w.close();
        }
    }

    @Test
    void failing_over_to_the_backup_never_takes_it_past_its_cap() throws Exception {
        DailyCap cap = new DailyCap(OptionalLong.of(40), List.of(), Optional.empty(), Optional.empty(), ZoneId.of("UTC"));
        SettableClock clock = SettableClock.at("2026-11-23T09:00:00Z");
        LocalDate day = LocalDate.parse("2026-11-23");
        AtomicBoolean primaryStopped = new AtomicBoolean();
        AtomicInteger primaryMessages = new AtomicInteger();
        try (ScriptedSmtpServer primary = ScriptedSmtpServer.builder()
                     .greeting(cmd -> primaryStopped.get() ? Reply.drop() : Reply.of(220, "primary ready"))
                     .on("MAIL", cmd -> primaryStopped.get() ? Reply.drop() : Reply.ok())
                     .onMessage(cmd -> {
                         if (primaryMessages.incrementAndGet() == 12) {
                             primaryStopped.set(true);
                         }
                         return Reply.ok();
                     }).start();
             ScriptedSmtpServer backup = ScriptedSmtpServer.builder().start()) {
            // A plain list: the primary takes everything, the backup stands in for it.
            Stack w = new Stack(relays("fo-primary", primary, "fo-backup", backup, "fo-primary,fo-backup"), cap, clock, "w1");
            long id = w.campaign("Failover under caps", 200);
            try {
                // One run on a clock that stands still: the primary's back-off does not pass, and the
                // messages its dropped connections left for a retry are not due again.
                w.scheduler.tick();

                assertThat(backup.messages()).as("the backup, at its cap").hasSize(40);
                assertThat(count("fo-backup", day)).isEqualTo(40);
                // The primary's count is what it tried: delivered, or waiting for a retry after its connections dropped.
                long triedOnPrimary = rows(id, "fo-primary");
                assertThat(primary.messages().size()).isBetween(12, 15);
                assertThat(count("fo-primary", day)).isEqualTo(triedOnPrimary).isLessThanOrEqualTo(40);
                Map<String, Integer> viaPrimary = addressees(primary);
                assertThat(viaPrimary.keySet()).doesNotContainAnyElementsOf(addressees(backup).keySet());
                assertThat(recipients(id, "sent")).isEqualTo(primary.messages().size() + 40);
                assertThat(recipients(id, "unknown")).isZero();
            } finally {
                // The class shares one database: later tests must not tick this campaign.
                w.campaigns.cancel(id);
                w.close();
            }
        }
    }

    @Test
    void claimers_of_routes_in_either_order_racing_for_the_last_slots_fill_each_relay_to_exactly_its_volume() throws Exception {
        int volume = 20;
        DailyCap cap = new DailyCap(OptionalLong.of(volume), List.of(), Optional.empty(), Optional.empty(), ZoneId.of("UTC"));
        AtomicLong ids = new AtomicLong();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            for (int day = 0; day < 20; day++) {
                Instant now = Instant.parse("2026-11-23T09:00:00Z").plus(Duration.ofDays(day));
                CyclicBarrier start = new CyclicBarrier(8);
                List<Callable<Long>> claimers = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    // Half list the relays the other way round: the rows are locked in name order all the same.
                    List<String> route = t % 2 == 0 ? List.of("race-a", "race-b") : List.of("race-b", "race-a");
                    claimers.add(() -> {
                        DailyQuota quota = new DailyQuota(cap, route, new int[] {3, 1}, new DailyCountTable());
                        start.await();
                        return QuotaClaims.takeAll(db.dataSource(), quota, now, ids);
                    });
                }
                long total = 0;
                for (Future<Long> f : threads.invokeAll(claimers)) {
                    total += f.get();
                }
                LocalDate date = LocalDate.parse("2026-11-23").plusDays(day);
                assertThat(total).as("taken on " + date).isEqualTo(2L * volume);
                assertThat(count("race-a", date)).as("race-a on " + date).isEqualTo(volume);
                assertThat(count("race-b", date)).as("race-b on " + date).isEqualTo(volume);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /** Two relays on the scripted servers; {@code route} is the default route. */
    private static Relays relays(String first, ScriptedSmtpServer a, String second, ScriptedSmtpServer b, String route) {
        Map<String, Relay> byName = new LinkedHashMap<>();
        byName.put(first, new Relay(first, settings(a)));
        byName.put(second, new Relay(second, settings(b)));
        return new Relays(byName, RelayRoute.parse(route));
    }

    private static SmtpSettings settings(ScriptedSmtpServer server) {
        return SmtpSettings.of("127.0.0.1", server.port(), TlsMode.NONE, "mailrun.test")
                .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5)).withConnections(4);
    }

    /** One worker: the real sending stack through {@code relays}, on the shared clock. */
    private static final class Stack implements AutoCloseable {
        final TaskStore tasks = new TaskStore(db.dataSource());
        final Campaigns campaigns;
        final Scheduler scheduler;
        final CampaignReports reports;

        Stack(Relays relays, DailyCap cap, SettableClock clock, String owner) {
            TemplateLoader templates = new TemplateLoader(Path.of("templates"));
            SendSettings settings = SendSettingsFixtures.builder().batchMax(8)
                    .retries(5, Duration.ofSeconds(1)).dailyCap(cap).build();
            SendTask task = new SendTask(SendDependenciesFixtures.relays(db.dataSource(), templates, settings,
                    TestTiming.realTime(clock), relays));
            campaigns = new Campaigns(db.dataSource(), tasks, templates, clock, INTERVAL);
            scheduler = new Scheduler(db.dataSource(), HandlerRegistry.of(task), SchedulerConfig.defaults(owner),
                    clock);
            reports = new CampaignReports(db.dataSource(), tasks, clock, settings, relays);
        }

        long campaign(String name, int recipients) throws Exception {
            long id = campaigns.create(new NewCampaign(name, "welcome", "news@sender.example", Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
            CampaignFixtures.recipients(db.dataSource(), id, recipients);
            campaigns.start(id);
            return id;
        }

        @Override
        public void close() {
            scheduler.close();
        }
    }

    /** How many messages each address received through {@code server}. */
    private static Map<String, Integer> addressees(ScriptedSmtpServer server) {
        Map<String, Integer> to = new HashMap<>();
        for (String message : server.messages()) {
            Matcher m = TO.matcher(message);
            assertThat(m.find()).as("a To header in a message").isTrue();
            to.merge(m.group(1), 1, Integer::sum);
        }
        return to;
    }

    private static Map<String, Long> sentByRelay(long... campaigns) throws Exception {
        Map<String, Long> by = new HashMap<>();
        Set<Long> ids = new HashSet<>();
        for (long id : campaigns) {
            ids.add(id);
        }
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT campaign_id, relay, COUNT(*) FROM recipient WHERE status = 'sent' GROUP BY campaign_id, relay")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (ids.contains(rs.getLong(1))) {
                        by.merge(rs.getString(2), rs.getLong(3), Long::sum);
                    }
                }
            }
        }
        return by;
    }

    /** Rows of the campaign whose result was recorded through {@code relay} (sent, retry or failed). */
    private static long rows(long campaignId, String relay) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT COUNT(*) FROM recipient WHERE campaign_id = ? AND relay = ?")) {
            ps.setLong(1, campaignId);
            ps.setString(2, relay);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static long recipients(long campaignId, String status) throws Exception {
        return CampaignFixtures.recipientCount(db.dataSource(), campaignId, status);
    }

    private static long count(String relay, LocalDate day) throws Exception {
        return Transactions.inTransaction(db.dataSource(), c -> new DailyCountTable().read(c, relay, day));
    }
}
