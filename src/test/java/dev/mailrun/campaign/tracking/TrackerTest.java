package dev.mailrun.campaign.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.TrackingClass;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.store.TrackedLinkTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The tracker over the real tables: the bounded buffer, the batched writer, retention and per-recipient off. */
class TrackerTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final String CHROME = ClassifierTest.CHROME;
    private final SettableClock clock = SettableClock.at("2026-11-26T10:00:00Z");

    private long trackedCampaign(String name) throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), name);
        CampaignFixtures.recipients(db.dataSource(), id, 3);
        Transactions.inTransaction(db.dataSource(), c -> {
            TrackedLinkTable t = new TrackedLinkTable();
            t.setMode(c, id, new TrackingMode(true, true), clock.instant());
            t.saveLinks(c, id, List.of(URI.create("https://shop.example/a"), URI.create("https://shop.example/b")), clock.instant());
            return null;
        });
        return id;
    }

    private Tracker tracker(int capacity, boolean perRecipient, CountingListener listener) {
        return new Tracker(db.dataSource(), clock, new TrackingSettings(URI.create("https://t.example/"), perRecipient,
                Duration.ofDays(180), Duration.ofSeconds(10), Set.of(), capacity), MachineList.shipped(), listener);
    }

    @Test
    void a_full_buffer_drops_and_counts_events_and_every_request_is_still_answered() throws Exception {
        long campaign = trackedCampaign("Full");
        long recipient = recipientIds(campaign).get(0);
        CountingListener listener = new CountingListener();
        Tracker tracker = tracker(5, true, listener);
        clock.advance(Duration.ofHours(1));

        for (int i = 0; i < 12; i++) {
            clock.advance(Duration.ofSeconds(5));
            assertThat(tracker.click(campaign, recipient, 0, new Tracker.Request(false, CHROME, Optional.empty())))
                    .contains("https://shop.example/a");
        }

        assertThat(listener.dropped.get()).isEqualTo(7);
        assertThat(tracker.flusher().flush()).isEqualTo(5);
        assertThat(listener.tracked.get()).isEqualTo(5);
        assertThat(eventCount(campaign)).isEqualTo(5);
        assertThat(tracker.flusher().flush()).isZero();
    }

    @Test
    void events_older_than_the_retention_are_deleted_once_the_clock_has_moved_past_it() throws Exception {
        long campaign = trackedCampaign("Retained");
        long recipient = recipientIds(campaign).get(1);
        Tracker tracker = tracker(100, true, new CountingListener());
        assertThat(tracker.open(campaign, recipient, new Tracker.Request(false, CHROME, Optional.empty()))).isTrue();
        assertThat(tracker.flusher().flush()).isEqualTo(1);
        clock.advance(Duration.ofDays(179));
        tracker.flusher().flush();
        assertThat(eventCount(campaign)).isEqualTo(1);

        clock.advance(Duration.ofDays(2));
        tracker.flusher().flush();

        assertThat(eventCount(campaign)).isZero();
    }

    @Test
    void without_per_recipient_tracking_events_name_no_recipient() throws Exception {
        long campaign = trackedCampaign("Counts only");
        long recipient = recipientIds(campaign).get(2);
        Tracker tracker = tracker(100, false, new CountingListener());
        clock.advance(Duration.ofHours(1));
        tracker.click(campaign, recipient, 1, new Tracker.Request(false, CHROME, Optional.empty()));
        clock.advance(Duration.ofSeconds(1));
        tracker.flusher().flush();

        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT recipient_id, class, link_index FROM tracking_event WHERE campaign_id = ?")) {
            ps.setLong(1, campaign);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(1)).isNull();
                assertThat(rs.getString(2)).isEqualTo(TrackingClass.HUMAN.dbValue());
                assertThat(rs.getInt(3)).isEqualTo(1);
                assertThat(rs.next()).isFalse();
            }
        }
    }

    @Test
    void the_first_click_of_a_burst_is_a_scanners_too_even_when_a_flush_came_between_the_clicks() throws Exception {
        long campaign = trackedCampaign("Burst");
        List<Long> ids = recipientIds(campaign);
        CountingListener listener = new CountingListener();
        Tracker tracker = tracker(100, true, listener);
        Tracker.Request person = new Tracker.Request(false, CHROME, Optional.empty());
        clock.advance(Duration.ofHours(1));

        // A gateway: both links of one message, 300 ms apart, with the flusher passing in between.
        tracker.click(campaign, ids.get(0), 0, person);
        assertThat(tracker.flusher().flush()).as("a click less than a second old waits").isZero();
        clock.advance(Duration.ofMillis(300));
        tracker.click(campaign, ids.get(0), 1, person);
        clock.advance(Duration.ofMillis(999));
        assertThat(tracker.flusher().flush()).as("the first is a second old, the second not yet").isEqualTo(1);
        clock.advance(Duration.ofMillis(1));
        assertThat(tracker.flusher().flush()).isEqualTo(1);

        // A person: one link, then the other five seconds later, a flush after each.
        tracker.click(campaign, ids.get(1), 0, person);
        clock.advance(Duration.ofSeconds(5));
        assertThat(tracker.flusher().flush()).isEqualTo(1);
        tracker.click(campaign, ids.get(1), 1, person);
        clock.advance(Duration.ofSeconds(1));
        assertThat(tracker.flusher().flush()).isEqualTo(1);

        assertThat(classes(campaign, ids.get(0))).containsExactly("0 scanner", "1 scanner");
        assertThat(classes(campaign, ids.get(1))).containsExactly("0 human", "1 human");
        assertThat(listener.tracked.get()).isEqualTo(4);
    }

    @Test
    void a_head_or_the_same_link_again_makes_no_burst_and_a_stop_writes_the_held_clicks() throws Exception {
        long campaign = trackedCampaign("No burst");
        long recipient = recipientIds(campaign).get(2);
        Tracker tracker = tracker(100, true, new CountingListener());
        clock.advance(Duration.ofHours(1));

        tracker.click(campaign, recipient, 0, new Tracker.Request(true, CHROME, Optional.empty()));
        clock.advance(Duration.ofMillis(200));
        tracker.click(campaign, recipient, 1, new Tracker.Request(false, CHROME, Optional.empty()));
        clock.advance(Duration.ofMillis(200));
        tracker.click(campaign, recipient, 1, new Tracker.Request(false, CHROME, Optional.empty()));
        tracker.flusher().close();

        assertThat(classes(campaign, recipient)).containsExactly("0 scanner", "1 human", "1 human");
    }

    @Test
    void a_campaign_without_tracking_or_a_link_it_does_not_have_records_nothing() throws Exception {
        long tracked = trackedCampaign("Tracked");
        long untracked = CampaignFixtures.campaign(db.dataSource(), "Untracked");
        CampaignFixtures.recipients(db.dataSource(), untracked, 1);
        CountingListener listener = new CountingListener();
        Tracker tracker = tracker(100, true, listener);
        Tracker.Request person = new Tracker.Request(false, CHROME, Optional.empty());

        assertThat(tracker.click(tracked, recipientIds(tracked).get(0), 2, person)).isEmpty();
        assertThat(tracker.click(untracked, recipientIds(untracked).get(0), 0, person)).isEmpty();
        assertThat(tracker.open(untracked, recipientIds(untracked).get(0), person)).isFalse();
        assertThat(tracker.click(tracked, recipientIds(untracked).get(0), 0, person)).as("another campaign's recipient").isEmpty();

        assertThat(listener.tracked.get()).isZero();
        assertThat(tracker.flusher().flush()).isZero();
    }

    private static List<Long> recipientIds(long campaign) throws Exception {
        List<Long> ids = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT id FROM recipient WHERE campaign_id = ? ORDER BY id")) {
            ps.setLong(1, campaign);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        return ids;
    }

    /** Each click of the recipient as "link class", in the order they came. */
    private static List<String> classes(long campaign, long recipient) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT link_index, class FROM tracking_event "
                     + "WHERE campaign_id = ? AND recipient_id = ? AND kind = 'click' ORDER BY at, link_index")) {
            ps.setLong(1, campaign);
            ps.setLong(2, recipient);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getInt(1) + " " + rs.getString(2));
                }
            }
        }
        return out;
    }

    private static long eventCount(long campaign) throws Exception {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM tracking_event WHERE campaign_id = ?")) {
            ps.setLong(1, campaign);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static final class CountingListener implements TrackingListener {
        final AtomicInteger tracked = new AtomicInteger();
        final AtomicInteger dropped = new AtomicInteger();

        @Override
        public void tracked(boolean click, TrackingClass trackingClass) {
            tracked.incrementAndGet();
        }

        @Override
        public void dropped() {
            dropped.incrementAndGet();
        }
    }
}
