package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.NewCampaign;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A run abandoned mid-batch: its in-flight recipients become unknown, nothing else changes, the
 * zombie claims and marks nothing when it wakes up and records only the replies it got for rows
 * still unknown in its name, and requeue-unknown resends exactly the recipients left unknown.
 */
class AbandonedSendRunTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Duration INTERVAL = Duration.ofMinutes(5);
    private static final Pattern TO = Pattern.compile("^To: .*?<?(r\\d+@list\\.example)>?$", Pattern.MULTILINE);

    @Test
    void a_run_abandoned_mid_batch_leaves_unknown_rows_and_requeue_resends_exactly_those() throws Exception {
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(1));
        CountDownLatch hold = new CountDownLatch(1);
        AtomicInteger accepted = new AtomicInteger();
        try (ScriptedSmtpServer stalling = ScriptedSmtpServer.builder()
                .onMessage(cmd -> {
                    if (accepted.incrementAndGet() > 20) {
                        await(hold);   // the relay stops answering: the run hangs mid-batch
                    }
                    return Reply.ok();
                }).start();
             ScriptedSmtpServer healthy = ScriptedSmtpServer.builder().start();
             SendingHarness dying = new SendingHarness(db.dataSource(), clock, stalling.port(), INTERVAL,
                     SendSettingsFixtures.defaults("relay-a", 0), "worker-that-dies");
             SendingHarness survivor = new SendingHarness(db.dataSource(), clock, healthy.port(), INTERVAL,
                     SendSettingsFixtures.defaults("relay-b", 0), "worker-that-survives")) {

            long id = dying.campaigns.create(new NewCampaign("Abandoned", "welcome", "news@sender.example", Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
            CampaignFixtures.recipients(db.dataSource(), id, 200);
            dying.campaigns.start(id);

            Thread zombie = new Thread(() -> {
                try {
                    dying.scheduler.tick();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "zombie-run");
            zombie.start();
            Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10)).until(() -> accepted.get() > 20 && !inFlightEmails(id).isEmpty());

            // The dying worker stops heartbeating; its lease runs out (the database decides, no sleeping).
            // Its run is stalled but not dead: a flush or the claim of its next batch, still under
            // way, checkpoints and so extends the lease again. Then the survivor finds the run
            // live and skips; expire again until the survivor takes over.
            long sentBefore = count(id, "sent");
            Set<String> inFlight = Set.of();
            for (int attempt = 0; attempt < 50 && emails(id, "unknown").isEmpty(); attempt++) {
                try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                        "UPDATE task SET lease_until = UTC_TIMESTAMP(3) - INTERVAL 1 SECOND WHERE run_token IS NOT NULL")) {
                    ps.executeUpdate();
                }
                inFlight = inFlightEmails(id);
                survivor.scheduler.tick();
            }

            // The survivor's run can still find the queue empty while a last transaction of the
            // stalled run (about to fail on the lease) locks a few rows: those stay pending, not
            // held, and the next run sends them. Nobody is skipped; it may take one more tick.
            for (int extra = 0; extra < 5 && count(id, "pending") > 0; extra++) {
                clock.advance(INTERVAL);
                survivor.scheduler.tick();
            }
            // Of what the stalled run had in flight, it may already have recorded the results it held
            // for messages the relay took before it stalled: those rows are sent, the rest unknown.
            Set<String> unknown = emails(id, "unknown");
            assertThat(unknown).isNotEmpty();
            assertThat(inFlight).containsAll(unknown);
            Set<String> relayedBeforeTakeover = new HashSet<>();
            stalling.messages().forEach(m -> relayedBeforeTakeover.add(recipientOf(m)));
            inFlight.stream().filter(a -> !unknown.contains(a))
                    .forEach(a -> assertThat(relayedBeforeTakeover).as("recorded after the takeover: " + a).contains(a));
            assertThat(unknown.size()).isLessThanOrEqualTo(4 + 100); // connections + one flush
            assertThat(count(id, "sent")).isEqualTo(200 - unknown.size()); // the survivor sent everyone else

            // The zombie wakes up: it claims and marks nothing more; it records only the replies it
            // got for rows still unknown in its name.
            hold.countDown();
            zombie.join(30_000);
            assertThat(zombie.isAlive()).isFalse();
            Set<String> stillUnknown = emails(id, "unknown");
            assertThat(unknown).containsAll(stillUnknown);
            Set<String> relayed = new HashSet<>();
            stalling.messages().forEach(m -> relayed.add(recipientOf(m)));
            unknown.stream().filter(a -> !stillUnknown.contains(a))
                    .forEach(a -> assertThat(relayed).as("recorded by the zombie: " + a).contains(a));
            assertThat(count(id, "sent")).isEqualTo(200 - stillUnknown.size());
            assertThat(sentBefore).isLessThanOrEqualTo(count(id, "sent"));

            int healthyBefore = healthy.messages().size();
            assertThat(survivor.campaigns.requeueUnknown(id)).isEqualTo(stillUnknown.size());
            clock.advance(INTERVAL);
            survivor.scheduler.tick();
            List<String> resent = new ArrayList<>();
            healthy.messages().subList(healthyBefore, healthy.messages().size()).forEach(m -> resent.add(recipientOf(m)));
            assertThat(resent).containsExactlyInAnyOrderElementsOf(stillUnknown);
            assertThat(count(id, "sent")).isEqualTo(200);

            // Nobody outside the unknown window got two messages.
            Map<String, Integer> received = new HashMap<>();
            stalling.messages().forEach(m -> received.merge(recipientOf(m), 1, Integer::sum));
            healthy.messages().forEach(m -> received.merge(recipientOf(m), 1, Integer::sum));
            assertThat(received).hasSize(200);
            received.forEach((address, n) -> {
                if (!stillUnknown.contains(address)) {
                    assertThat(n).as(address).isEqualTo(1);
                }
            });
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String recipientOf(String message) {
        Matcher m = TO.matcher(message);
        return m.find() ? m.group(1) : "?";
    }

    private static long count(long campaignId, String status) throws Exception {
        return emails(campaignId, status).size();
    }

    /** The recipients the campaign's run has in flight (its in-flight row) whose rows still wait. */
    private static Set<String> inFlightEmails(long campaignId) throws Exception {
        Set<String> out = new HashSet<>();
        try (Connection c = db.dataSource().getConnection()) {
            for (long recipient : new InFlightTable().ids(c, campaignId)) {
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT email FROM recipient WHERE id = ? AND status IN ('pending', 'retry')")) {
                    ps.setLong(1, recipient);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            out.add(rs.getString(1));
                        }
                    }
                }
            }
        }
        return out;
    }

    private static Set<String> emails(long campaignId, String status) throws Exception {
        Set<String> out = new HashSet<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT email FROM recipient WHERE campaign_id = ? AND status = ?")) {
            ps.setLong(1, campaignId);
            ps.setString(2, status);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
