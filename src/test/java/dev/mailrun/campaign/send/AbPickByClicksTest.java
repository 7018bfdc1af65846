package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.PickBy;
import dev.mailrun.campaign.model.TrackingClass;
import dev.mailrun.campaign.model.TrackingEvent;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.model.Variant;
import dev.mailrun.campaign.report.CampaignReport;
import dev.mailrun.campaign.report.CampaignReportJson;
import dev.mailrun.campaign.store.TrackingEventTable;
import dev.mailrun.campaign.variant.AbReport;
import dev.mailrun.testing.CampaignFixtures;
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
 * {@code --pick-by clicks}: when the decision falls due, the variant with the highest rate of
 * recipients with a human click wins by itself and the rest get it; scanners' clicks do not count,
 * and with no human click the campaign waits for the operator. The clicks are stored as the tracker
 * stores them (the click endpoint's own path is TrackingEndToEndTest's).
 */
class AbPickByClicksTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final AbTest BY_CLICKS = new AbTest(List.of(Variant.parse("A:subject=Spring sale"),
            Variant.parse("B:subject=Twenty off")), 50, Optional.of(Duration.ofHours(2)), PickBy.CLICKS);

    @Test
    void the_variant_people_clicked_more_wins_when_the_decision_is_due_and_the_rest_get_it() throws Exception {
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-23T10:00:00Z"), Duration.ofMillis(1));
        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL,
                SendSettingsFixtures.defaults("clicks-relay", 0), "w1")) {
            long id = h.campaigns.create(AbVariantSendingTest.campaign("Clicks"), Optional.empty(), List.of(),
                    Optional.of(new TrackingMode(false, true)), Optional.of(BY_CLICKS));
            CampaignFixtures.recipients(db.dataSource(), id, 40);
            h.campaigns.start(id);
            h.scheduler.tick();                                   // the test share: 10 each
            assertThat(CampaignFixtures.sentPerVariant(db.dataSource(), id)).containsExactly(10, 10);
            Map<Integer, List<Long>> sent = sentIdsByVariant(id);
            // A: one person and four scanners; B: three people (one twice).
            clicks(id, sent.get(0).subList(0, 1), TrackingClass.HUMAN, clock.instant());
            clicks(id, sent.get(0).subList(1, 5), TrackingClass.SCANNER, clock.instant());
            clicks(id, sent.get(1).subList(0, 3), TrackingClass.HUMAN, clock.instant());
            clicks(id, sent.get(1).subList(0, 1), TrackingClass.HUMAN, clock.instant());

            clock.advance(INTERVAL);
            h.scheduler.tick();                                   // the wait starts: the next run is at the decision
            clock.set(h.tasks.find(SendTask.taskName(id)).orElseThrow().nextRunAt());
            h.scheduler.tick();                                   // due: B wins by itself and the rest are sent
            for (int i = 0; i < 3 && h.campaigns.get(id).status() != CampaignStatus.COMPLETED; i++) {
                clock.advance(INTERVAL);
                h.scheduler.tick();
            }
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            var state = h.campaigns.abTest(id).orElseThrow();
            assertThat(state.winnerName()).contains("B");
            assertThat(state.winnerReason().orElseThrow()).startsWith("the highest rate of human clicks: A 10.0%")
                    .contains("B 30.0%");
            assertThat(CampaignFixtures.sentPerVariant(db.dataSource(), id)).containsExactly(10, 30);
        }
        Map<String, Long> bySubject = new HashMap<>();
        for (MimeMessage m : greenMail.getReceivedMessages()) {
            bySubject.merge(m.getSubject(), 1L, Long::sum);
        }
        assertThat(bySubject).containsExactlyInAnyOrderEntriesOf(Map.of("Spring sale", 10L, "Twenty off", 30L));
    }

    /**
     * The clock reads finer than the database keeps (DATETIME(3)): every instant it gives is 500 µs past a
     * millisecond, so none the run holds equals what it reads back. The rest must still be given the winner.
     */
    @Test
    void an_automatic_pick_on_a_clock_finer_than_the_database_stores_the_winner_with_every_recipient_of_the_rest()
            throws Exception {
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-26T10:00:00.000500Z"), Duration.ofMillis(1));
        AbTest twentyPercent = new AbTest(BY_CLICKS.variants(), 20, BY_CLICKS.decideAfter(), PickBy.CLICKS);
        long id;
        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL,
                SendSettingsFixtures.defaults("clicks-relay-4", 0), "w1")) {
            id = h.campaigns.create(AbVariantSendingTest.campaign("Fine clock"), Optional.empty(), List.of(),
                    Optional.of(new TrackingMode(false, true)), Optional.of(twentyPercent));
            CampaignFixtures.recipients(db.dataSource(), id, 200);
            h.campaigns.start(id);
            h.scheduler.tick();                                   // the test share: 20 each
            assertThat(CampaignFixtures.sentPerVariant(db.dataSource(), id)).containsExactly(20, 20);
            Map<Integer, List<Long>> sent = sentIdsByVariant(id);
            clicks(id, sent.get(0).subList(0, 1), TrackingClass.HUMAN, clock.instant());
            clicks(id, sent.get(1).subList(0, 6), TrackingClass.HUMAN, clock.instant());

            clock.advance(INTERVAL);
            h.scheduler.tick();                                   // the wait starts
            clock.set(h.tasks.find(SendTask.taskName(id)).orElseThrow().nextRunAt().plusNanos(500_000));
            h.scheduler.tick();                                   // due: B wins by itself
            assertThat(h.campaigns.abTest(id).orElseThrow().winnerName()).contains("B");
            for (int i = 0; i < 10 && h.campaigns.get(id).status() != CampaignStatus.COMPLETED; i++) {
                clock.advance(INTERVAL);
                h.scheduler.tick();
            }
            assertThat(h.campaigns.get(id).status()).as("pending: %d", CampaignFixtures.recipientCount(db.dataSource(), id,
                    "pending")).isEqualTo(CampaignStatus.COMPLETED);

            // Status: the test share's figures, what B won by, and the rest's apart (two of them click).
            clicks(id, restIds(id).subList(0, 2), TrackingClass.HUMAN, clock.instant());
            CampaignReport status = h.reports().report(id);
            AbReport ab = status.ab().orElseThrow();
            assertThat(ab.variants()).extracting(l -> l.test().measure().toString())
                    .satisfiesExactly(m -> assertThat(m).startsWith("5.0% ").endsWith(", 1 of 20)"),
                            m -> assertThat(m).startsWith("30.0% ").endsWith(", 6 of 20)"));
            assertThat(ab.variants().get(0).rest()).isEmpty();
            assertThat(ab.variants().get(1).rest().orElseThrow().sent()).isEqualTo(160);
            assertThat(ab.variants().get(1).rest().orElseThrow().measure().toString()).endsWith(", 2 of 160)");
            JsonNode b = new ObjectMapper().readTree(CampaignReportJson.of(status)).path("ab").path("variants").path(1);
            assertThat(b.path("sent").asLong()).isEqualTo(20);
            assertThat(b.path("measure").path("count").asLong()).isEqualTo(6);
            assertThat(b.path("measure").path("of").asLong()).isEqualTo(20);
            assertThat(b.path("rest").path("sent").asLong()).isEqualTo(160);
            assertThat(b.path("rest").path("measure").path("count").asLong()).isEqualTo(2);
            assertThat(new ObjectMapper().readTree(CampaignReportJson.of(status)).path("ab").path("variants").path(0)
                    .path("rest").isNull()).isTrue();
        }
        assertThat(variantsStored(id)).containsExactlyInAnyOrderEntriesOf(Map.of("0", 20L, "1", 180L));
        java.io.StringWriter csv = new java.io.StringWriter();
        new dev.mailrun.campaign.CampaignExport(db.dataSource()).write(id, csv);
        Map<String, Long> exported = new HashMap<>();
        csv.toString().lines().skip(1).forEach(l -> exported.merge(l.split(",", -1)[12], 1L, Long::sum));
        assertThat(exported).containsExactlyInAnyOrderEntriesOf(Map.of("A", 20L, "B", 180L));
    }

    @Test
    void with_only_scanner_clicks_nothing_decides_and_the_campaign_waits_for_the_operator() throws Exception {
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-24T10:00:00Z"), Duration.ofMillis(1));
        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL,
                SendSettingsFixtures.defaults("clicks-relay-2", 0), "w1")) {
            long id = h.campaigns.create(AbVariantSendingTest.campaign("Scanned"), Optional.empty(), List.of(),
                    Optional.of(new TrackingMode(false, true)), Optional.of(BY_CLICKS));
            CampaignFixtures.recipients(db.dataSource(), id, 20);
            h.campaigns.start(id);
            h.scheduler.tick();
            clicks(id, sentIdsByVariant(id).get(1), TrackingClass.SCANNER, clock.instant());
            clock.advance(INTERVAL);
            h.scheduler.tick();                                   // the wait starts: the next run is at the decision
            Instant due = h.campaigns.abTest(id).orElseThrow().decisionDue().orElseThrow();
            clock.set(h.tasks.find(SendTask.taskName(id)).orElseThrow().nextRunAt());
            h.scheduler.tick();
            assertThat(h.campaigns.abTest(id).orElseThrow().decided()).isFalse();
            assertThat(CampaignFixtures.recipientCount(db.dataSource(), id, "sent")).isEqualTo(10);
            assertThat(h.tasks.recentRuns(SendTask.taskName(id), 1).get(0).summary().orElseThrow().path("why").asText())
                    .isEqualTo("waiting for the A/B decision until `campaign pick " + id + " VARIANT` (due since " + due
                            + "; no variant leads by human clicks)");
        }
    }

    @Test
    void picking_by_clicks_without_tracked_clicks_is_refused_at_create_with_one_line() throws Exception {
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-25T10:00:00Z"), Duration.ofMillis(1));
        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL,
                SendSettingsFixtures.defaults("clicks-relay-3", 0), "w1")) {
            assertThatThrownBy(() -> h.campaigns.create(AbVariantSendingTest.campaign("Untracked"), Optional.empty(),
                    List.of(), Optional.empty(), Optional.of(BY_CLICKS)))
                    .isInstanceOf(InvalidFields.class)
                    .hasMessage("pickBy: clicks needs the campaign's clicks tracked (track clicks, with tracking.enabled), "
                            + "or pick manually");
            assertThatThrownBy(() -> h.campaigns.create(AbVariantSendingTest.campaign("Opens only"), Optional.empty(),
                    List.of(), Optional.of(new TrackingMode(true, false)), Optional.of(BY_CLICKS)))
                    .isInstanceOf(InvalidFields.class).hasMessageStartingWith("pickBy: clicks needs");
        }
    }

    private static void clicks(long campaignId, List<Long> recipients, TrackingClass kind, Instant at) throws Exception {
        List<TrackingEvent> events = new ArrayList<>();
        for (long r : recipients) {
            events.add(new TrackingEvent(campaignId, Optional.of(r), true, 0, kind, Optional.empty(), at));
        }
        try (Connection c = db.dataSource().getConnection()) {
            new TrackingEventTable().insert(c, events);
        }
    }

    /** The recipients outside the test share, in id order. */
    private static List<Long> restIds(long campaignId) throws Exception {
        List<Long> out = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT id FROM recipient WHERE campaign_id = ? AND ab_test_share = 0 ORDER BY id")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
        }
        return out;
    }

    /** Recipients per stored variant position, "null" for those without one. */
    private static Map<String, Long> variantsStored(long campaignId) throws Exception {
        Map<String, Long> out = new HashMap<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT variant, COUNT(*) FROM recipient WHERE campaign_id = ? GROUP BY variant")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(String.valueOf(rs.getObject(1)), rs.getLong(2));
                }
            }
        }
        return out;
    }

    private static Map<Integer, List<Long>> sentIdsByVariant(long campaignId) throws Exception {
        Map<Integer, List<Long>> out = new HashMap<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT variant, id FROM recipient WHERE campaign_id = ? AND status = 'sent' ORDER BY id")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(rs.getInt(1), k -> new ArrayList<>()).add(rs.getLong(2));
                }
            }
        }
        return out;
    }
}
