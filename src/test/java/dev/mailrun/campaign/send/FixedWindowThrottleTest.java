package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.mail.AnvilRelay;
import dev.mailrun.testing.JumpingClock;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A relay that throttles by a fixed window as Postfix's anvil does ({@link AnvilRelay}): past its
 * limit it refuses every MAIL FROM until the window ends, and a session that collected ten refusals
 * gets every reply a second late, and is dropped at twenty. Runs every 10 s, on the shipped retry
 * policy (a deferral waits 5 minutes), so a recipient deferred instead of released would leave the
 * relay's next windows unused while the list is not done.
 */
class FixedWindowThrottleTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Instant SLOT = Instant.parse("2026-11-21T10:00:00Z");

    @BeforeEach
    void no_rate_is_adapted_yet() throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("DELETE FROM adapted_rate")) {
            ps.executeUpdate();
        }
    }

    @Test
    void refusals_for_going_too_fast_end_the_session_and_cost_no_recipient_a_deferral() throws Exception {
        // 100/s against 20 per 10 s: the first second draws far more refusals than a relay lets
        // one session make (twenty), the run's deadline falls inside the refused part of the window.
        try (AnvilRun run = new AnvilRun(20, Duration.ofSeconds(10), 100, Optional.empty(), 35, 8)) {
            assertThat(run.relay.windows().get(0).refused()).as("the relay did throttle").isGreaterThan(20);
            assertThat(run.relay.mostTooFastInOneSession()).as("too-fast refusals in one session").isEqualTo(1);
            assertThat(run.relay.droppedForErrors()).as("sessions dropped for too many errors").isZero();
            run.assertEveryoneSentOnceAtTheFirstAttempt();
        }
    }

    /**
     * The measured case: 600 recipients at 20/s against Postfix's 200 a minute. The relay's own
     * limit sends them in three windows, and each window after the first refusal is used to at
     * least 90% of it while recipients are left. Three minutes of real time.
     */
    @Test
    @Tag("slow")
    void every_window_after_the_first_refusal_is_used_to_within_a_tenth_of_the_relays_limit() throws Exception {
        try (AnvilRun run = new AnvilRun(200, Duration.ofSeconds(60), 20, Optional.of(20.0), 600, 40)) {
            List<AnvilRelay.Window> windows = run.relay.windows();
            int firstRefused = 0;
            while (windows.get(firstRefused).refused() == 0) {
                firstRefused++;
            }
            int lastAccepted = windows.size() - 1;
            while (windows.get(lastAccepted).accepted() == 0) {
                lastAccepted--;
            }
            assertThat(lastAccepted).as("the window the last recipient went in (600 at 200 a window)").isEqualTo(2);
            for (int i = firstRefused + 1; i < lastAccepted; i++) {
                assertThat(windows.get(i).accepted()).as("accepted in window %d", i).isGreaterThanOrEqualTo(180);
            }
            run.assertEveryoneSentOnceAtTheFirstAttempt();
        }
    }

    /** One campaign of {@code recipients} sent to a fixed-window relay, a run every 10 s until it completes or {@code slots} pass. */
    private static final class AnvilRun implements AutoCloseable {
        final AnvilRelay relay;
        final SendingHarness worker;
        final long campaign;
        final int recipients;

        AnvilRun(int limit, Duration window, double relayRate, Optional<Double> campaignRate, int recipients, int slots)
                throws Exception {
            this.recipients = recipients;
            JumpingClock clock = JumpingClock.startingAt(SLOT);
            relay = AnvilRelay.start(clock, limit, window);
            OneRelaySettings settings = SendSettingsFixtures.builder().through("relay-anvil", relayRate);
            worker = new SendingHarness(db.dataSource(), clock, relay.port(), INTERVAL, settings, "w1");
            campaign = worker.campaigns.create(new NewCampaign("Anvil", "welcome", "news@sender.example",
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), campaignRate));
            PacingFixtures.recipients(db.dataSource(), campaign, "a-", Map.of("list.example", recipients));
            worker.campaigns.start(campaign);
            // The first run starts on a slot of its own, not on one the set-up above used part of.
            clock.jumpTo(SLOT.plus(INTERVAL));
            for (int slot = 1; slot <= slots && worker.campaigns.get(campaign).status() != CampaignStatus.COMPLETED; slot++) {
                worker.scheduler.tick();
                clock.jumpTo(SLOT.plus(INTERVAL.multipliedBy(slot + 1)));
            }
            System.out.printf("[anvil] windows %s%n", relay.windows().stream()
                    .map(w -> w.accepted() + "/" + w.refused()).toList());
        }

        void assertEveryoneSentOnceAtTheFirstAttempt() throws Exception {
            Map<String, Integer> perAddress = new HashMap<>();
            relay.messages().forEach(m -> perAddress.merge(PacingFixtures.recipientOf(m), 1, Integer::sum));
            assertThat(perAddress).as("addresses that received a message").hasSize(recipients);
            assertThat(perAddress.values()).as("messages per address").containsOnly(1);
            assertThat(worker.campaigns.get(campaign).status()).isEqualTo(CampaignStatus.COMPLETED);
            // A too-fast refusal releases its recipient: no attempt charged, no retry to wait for.
            try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                    "SELECT COUNT(*) FROM recipient WHERE campaign_id = ? AND attempts <> 1")) {
                ps.setLong(1, campaign);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertThat(rs.getLong(1)).as("recipients charged other than one attempt").isZero();
                }
            }
        }

        @Override
        public void close() {
            worker.close();
            relay.close();
        }
    }
}
