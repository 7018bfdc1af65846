package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.mail.ScriptedSmtpServer.Reply;
import dev.mailrun.mail.ScriptedSmtpServer;
import dev.mailrun.testing.JumpingClock;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A relay that throttles the sender the way Postfix's anvil does: past {@link #LIMIT} messages in
 * any second it answers {@code 450 4.7.1 Error: too much mail from …}, far below smtp.rate.
 */
class RelayThrottleTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofSeconds(60);
    private static final Instant SLOT = Instant.parse("2026-11-21T10:00:00Z");
    private static final int LIMIT = 15;
    private static final int RECIPIENTS = 160;

    /** The relay's view: every MAIL FROM it accepted or throttled, in order, with its time. */
    private record Mail(long at, boolean throttled) {}

    @Test
    void a_throttling_relay_gets_the_whole_campaign_sent_without_a_pause_and_is_rarely_hit_once_adapted() throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("DELETE FROM adapted_rate")) {
            ps.executeUpdate();
        }
        Deque<Long> lastSecond = new ArrayDeque<>();
        List<Mail> mails = new ArrayList<>();
        PacingFixtures.Arrivals arrivals = new PacingFixtures.Arrivals();
        try (ScriptedSmtpServer smtp = ScriptedSmtpServer.builder()
                .on("MAIL", cmd -> {
                    synchronized (mails) {
                        long now = System.nanoTime();
                        while (!lastSecond.isEmpty() && now - lastSecond.peekFirst() >= 1_000_000_000L) {
                            lastSecond.removeFirst();
                        }
                        boolean throttled = lastSecond.size() >= LIMIT;
                        mails.add(new Mail(now, throttled));
                        if (throttled) {
                            return Reply.of(450, "4.7.1 Error: too much mail from 127.0.0.1");
                        }
                        lastSecond.addLast(now);
                        return Reply.ok();
                    }
                })
                .onMessage(cmd -> {
                    arrivals.message(cmd.argument());
                    return Reply.ok();
                }).start()) {
            JumpingClock clock = JumpingClock.startingAt(SLOT);
            // The failure breaker as shipped (10% of the last 200): counted as failures, the
            // throttled replies alone would pause the campaign within the first second.
            OneRelaySettings settings = SendSettingsFixtures.builder().retries(5, DomainPacingTest.RETRY_SOON).through("relay-throttling", 60);
            try (SendingHarness w = new SendingHarness(db.dataSource(), clock, smtp.port(), INTERVAL, settings, "w1")) {
                long id = w.campaigns.create(new NewCampaign("Throttled", "welcome", "news@sender.example",
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
                PacingFixtures.recipients(db.dataSource(), id, "t-", Map.of("list.example", RECIPIENTS));
                w.campaigns.start(id);
                DomainPacingTest.runUntilCompleted(clock, List.of(w), List.of(id));

                assertThat(w.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
                assertThat(w.campaigns.get(id).pauseReason()).isEmpty();
                assertThat(arrivals.perAddress).hasSize(RECIPIENTS);
                assertThat(arrivals.perAddress.values()).containsOnly(1);

                List<Mail> seen;
                synchronized (mails) {
                    seen = List.copyOf(mails);
                }
                long throttled = seen.stream().filter(Mail::throttled).count();
                // Once adapted (after the first quarter of the campaign), the relay's limit is hit rarely.
                List<Mail> later = seen.subList(seen.size() / 4, seen.size());
                long laterThrottled = later.stream().filter(Mail::throttled).count();
                System.out.printf("[throttle] mails=%d throttled=%d later=%d laterThrottled=%d%n", seen.size(), throttled,
                        later.size(), laterThrottled);
                assertThat(throttled).as("the relay did throttle").isGreaterThan(0);
                assertThat(laterThrottled).as("throttled replies once adapted").isLessThanOrEqualTo(later.size() / 20);

                // Each run's summary counts its own replies; the campaign may take more than one run.
                List<com.fasterxml.jackson.databind.JsonNode> adapted = w.tasks.recentRuns(SendTask.taskName(id), 20).stream()
                        .flatMap(r -> r.summary().stream())
                        .filter(s -> s.has("rate_adapted") && s.get("rate_adapted").has("relay:relay-throttling"))
                        .map(s -> s.get("rate_adapted").get("relay:relay-throttling")).toList();
                assertThat(adapted).isNotEmpty();
                assertThat(adapted.stream().mapToDouble(a -> a.get("lowest_per_second").asDouble()).min().orElseThrow())
                        .isLessThanOrEqualTo(LIMIT);
                assertThat(adapted.stream().mapToLong(a -> a.get("too_fast_replies").asLong()).sum())
                        .as("too-fast replies of all runs").isEqualTo(throttled);
                assertThat(DomainPacingTest.adaptedRates(db.dataSource())).containsOnlyKeys("relay:relay-throttling");
            }
        }
    }
}
