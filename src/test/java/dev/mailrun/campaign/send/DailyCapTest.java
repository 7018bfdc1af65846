package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.report.CampaignReports;
import dev.mailrun.campaign.send.policy.DailyCap;
import dev.mailrun.campaign.send.policy.DailyQuota;
import dev.mailrun.campaign.store.DailyCountTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The daily cap through real SMTP, two workers and a restart; the days move on a settable clock
 * (a clock that stands still: each run ends when the cap or the queue stops it, not by its deadline).
 */
class DailyCapTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofMinutes(5);
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    void two_workers_and_a_restart_send_exactly_the_cap_on_each_day_of_the_zone() throws Exception {
        String relay = "capped-relay";
        DailyCap cap = new DailyCap(OptionalLong.of(30), List.of(), Optional.empty(), Optional.empty(), BERLIN);
        OneRelaySettings settings = SendSettingsFixtures.builder().batchMax(8).dailyCap(cap).through(relay, 0);
        // Monday 23 November 2026, 10:00 in Berlin (CET, UTC+1).
        SettableClock clock = SettableClock.at("2026-11-23T09:00:00Z");
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().start()) {
            SendingHarness w1 = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL, settings, "w1");
            SendingHarness w2 = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL, settings, "w2");
            long a = campaign(w1, "Capped A", 100);
            long b = campaign(w1, "Capped B", 100);

            SendRuns.tickTogether(w1.scheduler, w2.scheduler);
            clock.advance(INTERVAL);
            SendRuns.tickTogether(w1.scheduler, w2.scheduler);
            assertThat(smtp.messages()).as("day 1, both campaigns together").hasSize(30);
            assertThat(count(relay, LocalDate.parse("2026-11-23"))).isEqualTo(30);
            assertThat(SendRuns.endReasons(w1.tasks, a, b)).contains(RunEndReason.DAILY_CAP);

            // A restart: new workers, the same day. The count is in the database, not in a worker.
            w1.close();
            w2.close();
            w1 = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL, settings, "w1");
            w2 = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL, settings, "w2");
            clock.set(Instant.parse("2026-11-23T22:55:00Z"));   // 23:55 in Berlin, still Monday there
            SendRuns.tickTogether(w1.scheduler, w2.scheduler);
            assertThat(smtp.messages()).as("after the restart, same day").hasSize(30);
            CampaignReports reports = w1.reports();
            assertThat(reports.report(a).heldBackBy()).containsExactly(
                    "daily cap of relay capped-relay reached (30 of 30 on 2026-11-23 Europe/Berlin, resets at 2026-11-23T23:00:00Z)");

            // Midnight in Berlin is 23:00 UTC: the campaigns continue by themselves.
            clock.set(Instant.parse("2026-11-23T23:00:00Z"));
            SendRuns.tickTogether(w1.scheduler, w2.scheduler);
            clock.advance(INTERVAL);
            SendRuns.tickTogether(w1.scheduler, w2.scheduler);
            assertThat(smtp.messages()).as("day 2").hasSize(60);
            assertThat(count(relay, LocalDate.parse("2026-11-24"))).isEqualTo(30);
            assertThat(reports.report(a).heldBackBy()).hasSize(1);

            clock.set(Instant.parse("2026-11-24T23:00:00Z"));
            for (int i = 0; i < 3; i++) {
                SendRuns.tickTogether(w1.scheduler, w2.scheduler);
                clock.advance(INTERVAL);
            }
            assertThat(smtp.messages()).as("day 3").hasSize(90);
            assertThat(w1.campaigns.get(a).status()).isEqualTo(CampaignStatus.RUNNING);
            assertThat(recipients(a, "sent") + recipients(b, "sent")).isEqualTo(90);
            assertThat(recipients(a, "pending") + recipients(b, "pending")).isEqualTo(110);
            w1.campaigns.cancel(a);   // the class shares one database: later tests must not tick them
            w1.campaigns.cancel(b);
            w1.close();
            w2.close();
        }
    }

    @Test
    void a_warm_up_ramps_the_daily_volume_day_by_day_and_then_grows_by_its_factor() throws Exception {
        String relay = "warming-relay";
        DailyCap ramp = new DailyCap(OptionalLong.empty(), List.of(5L, 12L), Optional.of(2.0),
                Optional.of(LocalDate.parse("2026-11-23")), ZoneId.of("UTC"));
        OneRelaySettings settings = SendSettingsFixtures.builder().batchMax(10).dailyCap(ramp).through(relay, 0);
        SettableClock clock = SettableClock.at("2026-11-23T09:00:00Z");
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder().start();
             SendingHarness w = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL, settings, "w1")) {
            long id = campaign(w, "Warming", 100);
            int[] expected = {5, 12, 24, 48};
            int total = 0;
            for (int day = 0; day < expected.length; day++) {
                clock.set(Instant.parse("2026-11-23T09:00:00Z").plus(Duration.ofDays(day)));
                w.scheduler.tick();
                clock.advance(INTERVAL);
                w.scheduler.tick();
                total += expected[day];
                assertThat(smtp.messages()).as("day " + (day + 1)).hasSize(total);
                assertThat(count(relay, LocalDate.parse("2026-11-23").plusDays(day))).isEqualTo(expected[day]);
            }
            assertThat(recipients(id, "sent")).isEqualTo(89);
            w.campaigns.cancel(id);   // the class shares one database: later tests must not tick it
        }
    }

    @Test
    void many_claimers_racing_for_the_last_slots_take_exactly_the_days_volume() throws Exception {
        String relay = "raced-relay";
        int volume = 20;
        DailyCap cap = new DailyCap(OptionalLong.of(volume), List.of(), Optional.empty(), Optional.empty(), ZoneId.of("UTC"));
        AtomicLong ids = new AtomicLong();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            // Every day is a fresh race for its last slots: eight claimers of 3 for a volume of 20.
            for (int day = 0; day < 30; day++) {
                Instant now = Instant.parse("2026-11-23T09:00:00Z").plus(Duration.ofDays(day));
                CyclicBarrier start = new CyclicBarrier(8);
                List<Callable<Long>> claimers = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    claimers.add(() -> {
                        DailyQuota quota = new DailyQuota(cap, List.of(relay), new int[] {1}, new DailyCountTable());
                        start.await();
                        return QuotaClaims.takeAll(db.dataSource(), quota, now, ids);
                    });
                }
                long total = 0;
                for (Future<Long> f : threads.invokeAll(claimers)) {
                    total += f.get();
                }
                LocalDate date = LocalDate.parse("2026-11-23").plusDays(day);
                assertThat(total).as("taken on " + date).isEqualTo(volume);
                assertThat(count(relay, date)).isEqualTo(volume);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    private static long campaign(SendingHarness h, String name, int recipients) throws Exception {
        long id = h.campaigns.create(new NewCampaign(name, "welcome", "news@sender.example", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        CampaignFixtures.recipients(db.dataSource(), id, recipients);
        h.campaigns.start(id);
        return id;
    }

    static long recipients(long campaignId, String status) throws Exception {
        return CampaignFixtures.recipientCount(db.dataSource(), campaignId, status);
    }

    private static long count(String relay, LocalDate day) throws Exception {
        return Transactions.inTransaction(db.dataSource(), c -> new DailyCountTable().read(c, relay, day));
    }
}
