package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.PickBy;
import dev.mailrun.campaign.model.Variant;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A run of an A/B campaign abandoned mid-batch during its test phase (its relay stops answering, its
 * lease runs out, another worker takes the task over): nobody is mailed twice, everyone of the test
 * share who was mailed got the variant stored with them, and after the pick the rest get only the winner.
 */
class AbCrashDuringTestTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofMinutes(5);
    private static final Pattern TO = Pattern.compile("^To: .*?<?(r\\d+@list\\.example)>?$", Pattern.MULTILINE);
    private static final Pattern SUBJECT = Pattern.compile("^Subject: (.*)$", Pattern.MULTILINE);
    private static final List<String> SUBJECTS = List.of("Spring sale", "20% off everything");

    @Test
    void a_run_abandoned_in_the_test_phase_mails_nobody_twice_and_nobody_two_variants() throws Exception {
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-23T10:00:00Z"), Duration.ofMillis(1));
        CountDownLatch hold = new CountDownLatch(1);
        AtomicInteger accepted = new AtomicInteger();
        try (ScriptedSmtpServer stalling = ScriptedSmtpServer.builder()
                .onMessage(cmd -> {
                    if (accepted.incrementAndGet() > 30) {
                        await(hold);   // the relay stops answering: the run hangs mid-batch
                    }
                    return Reply.ok();
                }).start();
             ScriptedSmtpServer healthy = ScriptedSmtpServer.builder().start();
             SendingHarness dying = new SendingHarness(db.dataSource(), clock, stalling.port(), INTERVAL,
                     SendSettingsFixtures.defaults("relay-a", 0), "worker-that-dies");
             SendingHarness survivor = new SendingHarness(db.dataSource(), clock, healthy.port(), INTERVAL,
                     SendSettingsFixtures.defaults("relay-b", 0), "worker-that-survives")) {

            long id = dying.campaigns.create(AbVariantSendingTest.campaign("Crash"), Optional.empty(), List.of(),
                    Optional.empty(), Optional.of(new AbTest(List.of(Variant.parse("A:subject=" + SUBJECTS.get(0)),
                            Variant.parse("B:subject=" + SUBJECTS.get(1))), 20, Optional.empty(), PickBy.MANUAL)));
            CampaignFixtures.recipients(db.dataSource(), id, 1000);
            dying.campaigns.start(id);

            Thread zombie = new Thread(() -> {
                try {
                    dying.scheduler.tick();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "zombie-run");
            zombie.start();
            Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10)).until(() -> accepted.get() > 30 && inFlight(id) > 0);

            // The dying worker's lease runs out (the database decides); the survivor takes over.
            for (int attempt = 0; attempt < 50 && CampaignFixtures.recipientCount(db.dataSource(), id, "unknown") == 0; attempt++) {
                try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                        "UPDATE task SET lease_until = UTC_TIMESTAMP(3) - INTERVAL 1 SECOND WHERE run_token IS NOT NULL")) {
                    ps.executeUpdate();
                }
                survivor.scheduler.tick();
            }
            long unknown = CampaignFixtures.recipientCount(db.dataSource(), id, "unknown");
            assertThat(unknown).isPositive();
            for (int extra = 0; extra < 5 && survivor.campaigns.abTest(id).orElseThrow().testDoneAt().isEmpty(); extra++) {
                clock.advance(INTERVAL);
                survivor.scheduler.tick();
            }
            assertThat(survivor.campaigns.abTest(id).orElseThrow().testDoneAt()).isPresent();
            // Only the test share went out: sent and unknown (in flight when the run was abandoned).
            assertThat(CampaignFixtures.recipientCount(db.dataSource(), id, "sent") + unknown).isEqualTo(200);
            assertThat(CampaignFixtures.recipientCount(db.dataSource(), id, "pending")).isEqualTo(800);

            hold.countDown();   // the zombie wakes up: its writes must all be refused
            zombie.join(30_000);
            assertThat(zombie.isAlive()).isFalse();

            survivor.campaigns.pick(id, "A");
            for (int i = 0; i < 5 && survivor.campaigns.get(id).status() != CampaignStatus.COMPLETED; i++) {
                clock.advance(INTERVAL);
                survivor.scheduler.tick();
            }
            assertThat(survivor.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);

            Map<String, Integer> variantOf = variants(id);
            Map<String, List<String>> received = new HashMap<>();
            List<String> all = new ArrayList<>(stalling.messages());
            all.addAll(healthy.messages());
            for (String m : all) {
                received.computeIfAbsent(field(TO, m), k -> new ArrayList<>()).add(field(SUBJECT, m));
            }
            received.forEach((address, subjects) -> {
                assertThat(subjects).as(address).hasSize(1);
                assertThat(subjects.get(0)).as(address).isEqualTo(SUBJECTS.get(variantOf.get(address)));
            });
            long winners = variantOf.values().stream().filter(v -> v == 0).count();
            assertThat(winners).isEqualTo(100 + 800);
            // The unknown ones may have been delivered by the stalled run; they are never resent automatically.
            assertThat(received.size()).isBetween((int) (1000 - unknown), 1000);
        }
    }

    private static Map<String, Integer> variants(long id) throws Exception {
        Map<String, Integer> out = new HashMap<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT email, variant FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return out;
    }

    private static int inFlight(long id) throws Exception {
        try (Connection c = db.dataSource().getConnection()) {
            return new InFlightTable().ids(c, id).size();
        }
    }

    private static String field(Pattern p, String message) {
        Matcher m = p.matcher(message);
        return m.find() ? m.group(1).strip() : "?";
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

}
