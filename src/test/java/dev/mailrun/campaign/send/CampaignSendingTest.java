package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.StatusCounts;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class CampaignSendingTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final Duration INTERVAL = Duration.ofSeconds(10);

    @Test
    void a_campaign_is_drained_over_several_runs_and_every_address_receives_exactly_one_message() throws Exception {
        int recipients = 1_500;
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(2));
        OneRelaySettings settings = SendSettingsFixtures.builder().batchMax(100).through("test-relay", 0);
        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL, settings, "w1")) {
            long id = h.campaigns.create(new NewCampaign("Launch", "welcome", "news@sender.example", Optional.of("Sender News"),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
            CampaignFixtures.recipients(db.dataSource(), id, recipients);
            assertThat(h.campaigns.start(id)).isEqualTo(CampaignStatus.RUNNING);

            int ticks = 0;
            while (h.campaigns.get(id).status() != CampaignStatus.COMPLETED && ticks < 40) {
                h.scheduler.tick();
                ticks++;
                clock.set(nextSlot(clock.peek()));
            }
            assertThat(h.campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);

            // every address exactly once
            Map<String, Integer> received = new HashMap<>();
            for (MimeMessage m : greenMail.getReceivedMessages()) {
                for (var to : m.getRecipients(Message.RecipientType.TO)) {
                    received.merge(((jakarta.mail.internet.InternetAddress) to).getAddress(), 1, Integer::sum);
                }
            }
            assertThat(received).hasSize(recipients);
            assertThat(received.values()).containsOnly(1);

            // several runs, none overlapping
            List<TaskRun> runs = new ArrayList<>(h.tasks.recentRuns(SendTask.taskName(id), 100));
            runs.removeIf(r -> r.items().orElse(0L) == 0L);
            assertThat(runs).hasSizeGreaterThan(1);
            runs.sort(Comparator.comparing(TaskRun::startedAt));
            for (int i = 1; i < runs.size(); i++) {
                assertThat(runs.get(i).startedAt()).isAfterOrEqualTo(runs.get(i - 1).finishedAt().orElseThrow());
            }
            // Each run ends before the next slot: its overrun, if any, stays within the margin the
            // scheduler kept. Not exactly zero: this clock steps on every read, the flush and heartbeat
            // threads read it as often as real time lets them (a pass every 50 ms), and a slow machine
            // adds reads the timebox could not foresee (a run has ended 22 ms late that way).
            assertThat(runs).allSatisfy(r -> assertThat(r.overrun().orElse(Duration.ZERO))
                    .isLessThan(r.margin().orElseThrow()));

            // the checkpoint matches the table
            JsonNode progress = new ObjectMapper().readTree(
                    h.tasks.find(SendTask.taskName(id)).orElseThrow().metadata().json().get("progress").toString());
            assertThat(progress.get("sent").asLong()).isEqualTo(count(id, "sent")).isEqualTo(recipients);
            assertThat(CampaignFixtures.sendingCount(db.dataSource(), id) + count(id, "pending") + count(id, "unknown")).isZero();
            assertThat(distinctMessageIds(id)).isEqualTo(recipients);
            StatusCounts.assertExact(db.dataSource(), id);
        }
    }

    private Instant nextSlot(Instant now) {
        long ms = INTERVAL.toMillis();
        return Instant.ofEpochMilli((now.toEpochMilli() / ms + 1) * ms);
    }

    static long count(long campaignId, String status) throws Exception {
        return CampaignFixtures.recipientCount(db.dataSource(), campaignId, status);
    }

    private static long distinctMessageIds(long campaignId) throws Exception {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(DISTINCT message_id) FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
