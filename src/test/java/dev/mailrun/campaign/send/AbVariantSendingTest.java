package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.PickBy;
import dev.mailrun.campaign.model.Variant;
import dev.mailrun.campaign.report.CampaignReport;
import dev.mailrun.campaign.variant.AbReport;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.JumpingClock;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import jakarta.mail.internet.MimeMessage;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A/B variants through the real sending path into GreenMail: the test share goes out split evenly,
 * the campaign waits for the decision (saying until when, its next run moved there), and after the
 * pick the rest get the winner only; everyone gets one message.
 */
class AbVariantSendingTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final String SPRING = "Spring sale";
    private static final String OFF = "20% off everything";

    @Test
    void a_thousand_recipients_twenty_percent_test_manual_pick_split_even_within_one_then_only_the_winner() throws Exception {
        Duration interval = Duration.ofSeconds(3);
        Instant slot = Instant.parse("2026-11-21T10:00:00Z");
        JumpingClock clock = JumpingClock.startingAt(slot);
        // 50/s in windows of under 3 s: the test share of 200 takes more than one run.
        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), interval,
                SendSettingsFixtures.defaults("ab-relay", 50), "w1")) {
            long id = h.campaigns.create(campaign("Spring"), Optional.empty(), List.of(), Optional.empty(), Optional.of(new AbTest(
                    List.of(Variant.parse("A:subject=" + SPRING), Variant.parse("B:subject=" + OFF)), 20, Optional.empty(),
                    PickBy.MANUAL)));
            CampaignFixtures.recipients(db.dataSource(), id, 1000);
            h.campaigns.start(id);

            assertThatThrownBy(() -> h.campaigns.pick(id, "A")).isInstanceOf(CampaignException.class)
                    .hasMessageContaining("test share is still being sent");
            int runs = 0;
            while (h.campaigns.abTest(id).orElseThrow().testDoneAt().isEmpty() && runs++ < 20) {
                clock.jumpTo(slot);
                h.scheduler.tick();
                slot = slot.plus(interval);
                // After every run of the test phase: each variant sent as often as the other, within one,
                // but for the messages a run cut by its deadline handed back unsent (the next run sends
                // them first), which are counted.
                long[] sent = CampaignFixtures.sentPerVariant(db.dataSource(), id);
                long handedBack = handedBackBelowLastSent(id);
                assertThat(Math.abs(sent[0] - sent[1])).as("sent A %d, B %d, handed back %d", sent[0], sent[1], handedBack)
                        .isLessThanOrEqualTo(1 + handedBack);
            }
            assertThat(runs).as("runs of the test phase").isGreaterThanOrEqualTo(2);
            assertThat(CampaignFixtures.sentPerVariant(db.dataSource(), id)).containsExactly(100, 100);
            assertThat(CampaignFixtures.recipientCount(db.dataSource(), id, "pending")).isEqualTo(800);
            assertThat(testShareIsEvenInClaimOrder(id)).isTrue();

            // Waiting: the run sends nothing and says why; no run of the timebox spins.
            String end = lastRun(h, id).path("end").asText();
            String why = lastRun(h, id).path("why").asText();
            assertThat(end).isEqualTo("ab_decision");
            assertThat(why).isEqualTo("waiting for the A/B decision until `campaign pick " + id + " VARIANT`");
            CampaignReport status = status(h, clock, id);
            assertThat(status.heldBackBy()).first().isEqualTo(why);
            assertThat(status.eta().waitsFor()).contains("campaign pick");
            AbReport ab = status.ab().orElseThrow();
            assertThat(ab.variants()).extracting(l -> l.test().sent()).containsExactly(100L, 100L);
            assertThat(ab.variants()).extracting(l -> l.test().measure().trials()).containsExactly(100L, 100L);
            assertThat(ab.variants()).extracting(AbReport.Line::rest).containsOnly(Optional.empty());

            assertThat(h.campaigns.pick(id, "B").givenTheWinner()).isEqualTo(800);
            assertThatThrownBy(() -> h.campaigns.pick(id, "A")).hasMessageContaining("variant B was picked already");
            for (int i = 0; i < 20 && h.campaigns.get(id).status() != CampaignStatus.COMPLETED; i++) {
                clock.jumpTo(slot);
                h.scheduler.tick();
                slot = slot.plus(interval);
            }
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            // The test share's figures stay what the pick weighed; the rest's, all B, are apart.
            AbReport after = status(h, clock, id).ab().orElseThrow();
            assertThat(after.variants()).extracting(l -> l.test().sent()).containsExactly(100L, 100L);
            assertThat(after.variants()).extracting(l -> l.test().measure().trials()).containsExactly(100L, 100L);
            assertThat(after.variants().get(0).rest()).isEmpty();
            assertThat(after.variants().get(1).rest().orElseThrow().sent()).isEqualTo(800L);
            assertThat(after.variants().get(1).rest().orElseThrow().measure().trials()).isEqualTo(800L);
            java.io.StringWriter export = new java.io.StringWriter();
            new dev.mailrun.campaign.CampaignExport(db.dataSource()).write(id, export);
            Map<String, Long> exported = new HashMap<>();
            int variantColumn = List.of(export.toString().lines().findFirst().orElseThrow().split(",")).indexOf("variant");
            export.toString().lines().skip(1).forEach(l -> exported.merge(l.split(",")[variantColumn], 1L, Long::sum));
            assertThat(exported).containsExactlyInAnyOrderEntriesOf(Map.of("A", 100L, "B", 900L));
        }

        Map<String, List<String>> subjects = new HashMap<>();
        for (MimeMessage m : greenMail.getReceivedMessages()) {
            subjects.computeIfAbsent(m.getAllRecipients()[0].toString(), k -> new ArrayList<>()).add(m.getSubject());
        }
        assertThat(subjects).hasSize(1000);
        assertThat(subjects.values()).allSatisfy(s -> assertThat(s).hasSize(1));
        Map<String, Long> bySubject = new HashMap<>();
        subjects.values().forEach(s -> bySubject.merge(s.get(0), 1L, Long::sum));
        assertThat(bySubject).containsExactlyInAnyOrderEntriesOf(Map.of(SPRING, 100L, OFF, 900L));
    }

    @Test
    void decide_after_moves_the_next_run_to_when_the_decision_is_due_and_the_clock_brings_it() throws Exception {
        Duration interval = Duration.ofSeconds(10);
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-22T10:00:00Z"), Duration.ofMillis(1));
        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), interval,
                SendSettingsFixtures.defaults("ab-relay-2", 0), "w1")) {
            long id = h.campaigns.create(campaign("Timer"), Optional.empty(), List.of(), Optional.empty(), Optional.of(new AbTest(
                    List.of(Variant.parse("A"), Variant.parse("B:from-name=The Shop;field.offer=ten")), 50,
                    Optional.of(Duration.ofHours(4)), PickBy.MANUAL)));
            CampaignFixtures.recipients(db.dataSource(), id, 40);
            h.campaigns.start(id);
            h.scheduler.tick();                       // the test share, 20; the run that sent it starts the wait
            assertThat(CampaignFixtures.recipientCount(db.dataSource(), id, "sent")).isEqualTo(20);
            assertThat(lastRun(h, id).path("end").asText()).isEqualTo("ab_decision");
            clock.advance(interval);
            h.scheduler.tick();                       // the next slot: nothing runs, the next run is at the decision
            Instant due = h.campaigns.abTest(id).orElseThrow().decisionDue().orElseThrow();
            assertThat(lastRun(h, id).path("why").asText()).isEqualTo("waiting for the A/B decision until " + due);
            Instant nextRun = h.tasks.find(SendTask.taskName(id)).orElseThrow().nextRunAt();
            assertThat(nextRun).isAfterOrEqualTo(due).isBefore(due.plus(interval));

            clock.advance(Duration.ofHours(1));       // nothing is due: the tick runs nothing
            int runsBefore = h.tasks.recentRuns(SendTask.taskName(id), 50).size();
            h.scheduler.tick();
            assertThat(h.tasks.recentRuns(SendTask.taskName(id), 50)).hasSize(runsBefore);

            clock.set(nextRun);
            h.scheduler.tick();
            assertThat(lastRun(h, id).path("why").asText())
                    .isEqualTo("waiting for the A/B decision until `campaign pick " + id + " VARIANT` (due since " + due + ")");
            assertThat(CampaignFixtures.recipientCount(db.dataSource(), id, "sent")).isEqualTo(20);

            h.campaigns.pick(id, "B");
            clock.advance(interval);
            h.scheduler.tick();
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            assertThat(CampaignFixtures.sentPerVariant(db.dataSource(), id)).containsExactly(10, 30);
        }
        long shopFrom = 0;
        for (MimeMessage m : greenMail.getReceivedMessages()) {
            if (m.getFrom()[0].toString().startsWith("The Shop")) {
                shopFrom++;
            }
        }
        assertThat(shopFrom).isEqualTo(30);
    }

    private static CampaignReport status(SendingHarness h, java.time.Clock clock, long id) throws Exception {
        return h.reports().report(id);
    }

    static NewCampaign campaign(String name) {
        return new NewCampaign(name, "welcome", "news@sender.example", Optional.of("News"), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    private static com.fasterxml.jackson.databind.JsonNode lastRun(SendingHarness h, long id) throws Exception {
        List<TaskRun> runs = h.tasks.recentRuns(SendTask.taskName(id), 1);
        return runs.get(0).summary().orElseThrow();
    }

    /** Test recipients not yet sent whose id is below the highest sent one: claimed by a run and handed back at its deadline. */
    static long handedBackBelowLastSent(long id) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT COUNT(*) FROM recipient WHERE campaign_id = ? AND variant IS NOT NULL AND status = 'pending'
                AND id < (SELECT MAX(id) FROM recipient WHERE campaign_id = ? AND status = 'sent')""")) {
            ps.setLong(1, id);
            ps.setLong(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Every prefix of the test share in id order (the claim order) holds each variant equally often, within one. */
    static boolean testShareIsEvenInClaimOrder(long id) throws Exception {
        long[] seen = new long[2];
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT variant FROM recipient WHERE campaign_id = ? AND variant IS NOT NULL ORDER BY id")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    seen[rs.getInt(1)]++;
                    if (Math.abs(seen[0] - seen[1]) > 1) {
                        return false;
                    }
                }
            }
        }
        return seen[0] + seen[1] > 0;
    }
}
