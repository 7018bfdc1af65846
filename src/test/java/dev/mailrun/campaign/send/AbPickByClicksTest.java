package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import dev.mailrun.campaign.store.TrackingEventTable;
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
