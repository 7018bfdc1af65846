package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.SendWindows;
import dev.mailrun.campaign.send.policy.DailyCap;
import dev.mailrun.campaign.store.DailyCountTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.scheduler.TaskRun;
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
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Send windows and expiry through the real stack and a real SMTP server, on a settable clock that
 * each message moves on by a fixed cost: every message's time is the clock's when the server took
 * it. The instants the window opens and closes are written out in UTC, not computed by the code
 * under test.
 */
class WindowsAndExpiryTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    /**
     * The scripted server's view: when each message it accepted was started (its MAIL FROM), on the
     * test's clock, which each message moves on by {@code perMessage} as it is accepted. With several
     * connections a message started in time may be accepted after others moved the clock past a
     * deadline; what the run must not do is start one after it.
     */
    private static final class TimedServer implements AutoCloseable {
        final List<Instant> times = new CopyOnWriteArrayList<>();
        final ScriptedSmtpServer smtp;
        private final java.util.Map<Integer, Instant> started = new java.util.concurrent.ConcurrentHashMap<>();

        TimedServer(SettableClock clock, Duration perMessage) {
            smtp = ScriptedSmtpServer.builder().on("MAIL", cmd -> {
                synchronized (times) {
                    started.put(cmd.connection(), clock.instant());
                }
                return Reply.ok();
            }).onMessage(cmd -> {
                synchronized (times) {
                    times.add(started.get(cmd.connection()));
                    clock.advance(perMessage);
                }
                return Reply.ok();
            }).start();
        }

        long between(Instant from, Instant until) {
            return times.stream().filter(t -> !t.isBefore(from) && t.isBefore(until)).count();
        }

        @Override
        public void close() {
            smtp.close();
        }
    }

    @Test
    void a_run_is_cut_at_the_windows_end_and_the_campaign_waits_for_the_next_opening() throws Exception {
        Duration interval = Duration.ofMinutes(10);
        // Monday 23 November 2026; CET = UTC+1: the window is 07:00Z-08:05Z.
        SettableClock clock = SettableClock.at("2026-11-23T07:50:00Z");
        DailyCap roomy = new DailyCap(OptionalLong.of(100_000), List.of(), Optional.empty(), Optional.empty(), ZoneId.of("UTC"));
        OneRelaySettings settings = SendSettingsFixtures.builder().batchMax(50).dailyCap(roomy).through("window-relay", 0);
        try (TimedServer server = new TimedServer(clock, Duration.ofSeconds(2));
             SendingHarness h = new SendingHarness(db.dataSource(), clock, server.smtp.port(), interval, settings, "w1")) {
            long id = campaign(h, "Windowed", 1_000, "Mon-Fri 08:00-09:05 Europe/Berlin", Optional.empty());

            h.scheduler.tick();                                   // slot 07:50Z: its own deadline comes first
            clock.set(Instant.parse("2026-11-23T08:00:00Z"));
            h.scheduler.tick();                                   // slot 08:00Z: cut at the window's end, 08:05Z
            Instant close = Instant.parse("2026-11-23T08:05:00Z");
            assertThat(server.times).isNotEmpty().allSatisfy(t -> assertThat(t).isBefore(close));
            assertThat(server.between(Instant.parse("2026-11-23T08:04:00Z"), close))
                    .as("the window is used up to its end").isPositive();
            long monday = server.times.size();

            clock.set(Instant.parse("2026-11-23T08:10:00Z"));
            h.scheduler.tick();                                   // closed: claims nothing, says why
            assertThat(server.times).hasSize((int) monday);
            TaskRun closed = h.tasks.recentRuns(SendTask.taskName(id), 1).get(0);
            assertThat(closed.summary().orElseThrow().path("end").asText()).isEqualTo("window_closed");
            assertThat(closed.summary().orElseThrow().path("held_back").asText())
                    .isEqualTo("window closed until 2026-11-24T07:00:00Z (2026-11-24 08:00 Europe/Berlin)");
            assertThat(h.tasks.find(SendTask.taskName(id)).orElseThrow().nextRunAt())
                    .as("the next run is the first slot of the next opening").isEqualTo(Instant.parse("2026-11-24T07:00:00Z"));
            assertThat(h.reports().report(id).heldBackBy())
                    .containsExactly("window closed until 2026-11-24T07:00:00Z (2026-11-24 08:00 Europe/Berlin)");
            // Every run handed back the batch it had claimed ahead: those slots went back to the day.
            assertThat(dailyCount("window-relay", LocalDate.parse("2026-11-23"))).isEqualTo(monday);
            assertThat(status(id, "sent")).isEqualTo(monday);

            clock.set(Instant.parse("2026-11-24T07:00:00Z"));
            h.scheduler.tick();
            assertThat(server.times.size()).as("Tuesday's window sends again").isGreaterThan((int) monday);
            assertThat(server.times.subList((int) monday, server.times.size()))
                    .allSatisfy(t -> assertThat(t).isAfterOrEqualTo(Instant.parse("2026-11-24T07:00:00Z")));
            h.campaigns.cancel(id);   // the class shares one database: later tests must not tick it
        }
    }

    @Test
    void when_the_clocks_go_forward_nothing_is_sent_outside_the_window_of_the_shortened_night() throws Exception {
        // Europe/Berlin, Sunday 29 March 2026: 02:00 CET becomes 03:00 CEST at 01:00Z. 01:30-02:30 on
        // the wall clock is 00:30Z until the jump at 01:00Z.
        List<Instant> times = sendThroughTheNight("Spring", "2026-03-28T22:00:00Z", "2026-03-29T04:00:00Z");
        assertThat(times).isNotEmpty().allSatisfy(t -> assertThat(t)
                .isAfterOrEqualTo(Instant.parse("2026-03-29T00:30:00Z")).isBefore(Instant.parse("2026-03-29T01:00:00Z")));
    }

    @Test
    void when_the_clocks_go_back_the_window_is_open_through_both_passes_of_the_repeated_hour() throws Exception {
        // Europe/Berlin, Sunday 25 October 2026: 03:00 CEST becomes 02:00 CET at 01:00Z. 01:30-02:30 on
        // the wall clock is 23:30Z-00:30Z (summer time) and 01:00Z-01:30Z (winter time).
        List<Instant> times = sendThroughTheNight("Autumn", "2026-10-24T22:00:00Z", "2026-10-25T04:00:00Z");
        Instant firstOpen = Instant.parse("2026-10-24T23:30:00Z");
        Instant firstClose = Instant.parse("2026-10-25T00:30:00Z");
        Instant secondOpen = Instant.parse("2026-10-25T01:00:00Z");
        Instant secondClose = Instant.parse("2026-10-25T01:30:00Z");
        assertThat(times).isNotEmpty().allSatisfy(t -> assertThat(
                (!t.isBefore(firstOpen) && t.isBefore(firstClose)) || (!t.isBefore(secondOpen) && t.isBefore(secondClose)))
                .as("%s inside the window", t).isTrue());
        assertThat(times).anySatisfy(t -> assertThat(t).isBefore(firstClose));
        assertThat(times).anySatisfy(t -> assertThat(t).isAfterOrEqualTo(secondOpen));
    }

    /** A campaign with the window Sun 01:30-02:30 Europe/Berlin, ticked every 7 minutes through a night. */
    private List<Instant> sendThroughTheNight(String name, String from, String until) throws Exception {
        // 7-minute slots do not line up with the window, so its edges fall inside runs.
        Duration interval = Duration.ofMinutes(7);
        SettableClock clock = SettableClock.at(from);
        OneRelaySettings settings = SendSettingsFixtures.builder().batchMax(20).through("night-relay-" + name, 0);
        // One connection: the server moves the clock ten seconds a message, and with several, another
        // connection's message moved it past the window's end between the run's decision to send a
        // message and that message's MAIL (a message seen "at" 01:30:00 that was sent at 01:29:50).
        try (TimedServer server = new TimedServer(clock, Duration.ofSeconds(10));
             SendingHarness h = new SendingHarness(db.dataSource(), clock, server.smtp.port(), interval, settings, "w1", 1)) {
            long id = campaign(h, name, 2_000, "Sun 01:30-02:30 Europe/Berlin", Optional.empty());
            Instant end = Instant.parse(until);
            for (Instant slot = NextRun.slotAtOrAfter(clock.instant(), interval); slot.isBefore(end); slot = slot.plus(interval)) {
                if (clock.instant().isBefore(slot)) {
                    clock.set(slot);
                }
                h.scheduler.tick();
            }
            assertThat(status(id, "pending")).as("the window, not the list, ended the night").isPositive();
            assertThat(status(id, "sent")).isEqualTo(server.times.size());
            h.campaigns.cancel(id);   // the class shares one database: later tests must not tick it
            return List.copyOf(server.times);
        }
    }

    @Test
    void at_its_expiry_a_campaign_stops_sending_expires_the_rest_and_completes_as_expired() throws Exception {
        dev.mailrun.testing.Subscribed.toEverything(db.dataSource());
        Duration interval = Duration.ofMinutes(10);
        SettableClock clock = SettableClock.at("2026-11-23T09:50:00Z");
        Instant expiry = Instant.parse("2026-11-23T09:55:00Z");
        OneRelaySettings settings = SendSettingsFixtures.builder().batchMax(50).through("expiry-relay", 0);
        try (TimedServer server = new TimedServer(clock, Duration.ofSeconds(2));
             SendingHarness h = new SendingHarness(db.dataSource(), clock, server.smtp.port(), interval, settings, "w1")) {
            long id = campaign(h, "Expiring", 12_000, null, Optional.of(expiry));
            h.scheduler.tick();                                   // cut at the expiry, 09:55Z
            assertThat(server.times).isNotEmpty().allSatisfy(t -> assertThat(t).isBefore(expiry));
            long sent = server.times.size();

            clock.set(Instant.parse("2026-11-23T10:00:00Z"));
            h.scheduler.tick();
            assertThat(server.times).hasSize((int) sent);
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            assertThat(status(id, "sent")).isEqualTo(sent);
            assertThat(status(id, "expired")).as("in several statements of 5,000").isEqualTo(12_000 - sent);
            assertThat(status(id, "pending") + status(id, "retry") + CampaignFixtures.sendingCount(db.dataSource(), id)).isZero();
            TaskRun last = h.tasks.recentRuns(SendTask.taskName(id), 1).get(0);
            assertThat(last.summary().orElseThrow().path("end").asText()).isEqualTo("expired");
            assertThat(last.summary().orElseThrow().path("expired").asLong()).isEqualTo(12_000 - sent);
            assertThat(h.tasks.find(SendTask.taskName(id)).orElseThrow().enabled()).isFalse();
            assertThat(campaignEvents(id)).as("written with the transition").containsExactly("campaign.started", "campaign.expired");
        }
    }

    private static List<String> campaignEvents(long campaignId) throws Exception {
        try (java.sql.Connection c = db.dataSource().getConnection(); java.sql.PreparedStatement ps = c.prepareStatement(
                "SELECT type FROM event_outbox WHERE campaign_id = ? AND type LIKE 'campaign.%' ORDER BY seq")) {
            ps.setLong(1, campaignId);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                List<String> out = new java.util.ArrayList<>();
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
                return out;
            }
        }
    }

    private static long campaign(SendingHarness h, String name, int recipients, String window,
                                 Optional<Instant> expireAt) throws Exception {
        long id = h.campaigns.create(new NewCampaign(name, "welcome", "news@sender.example", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.ofNullable(window).map(SendWindows::parse), expireAt));
        CampaignFixtures.recipients(db.dataSource(), id, recipients);
        h.campaigns.start(id);
        return id;
    }

    private static long dailyCount(String relay, LocalDate day) throws Exception {
        return Transactions.inTransaction(db.dataSource(), c -> new DailyCountTable().read(c, relay, day));
    }

    private static long status(long campaignId, String status) throws Exception {
        return CampaignFixtures.recipientCount(db.dataSource(), campaignId, status);
    }
}
