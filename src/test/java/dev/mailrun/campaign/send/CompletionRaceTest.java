package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.SendSettingsFixtures;
import dev.mailrun.testing.SendingHarness;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.StatusCounts;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An import batch that is still uncommitted when a run finds the queue empty: the run must not
 * complete the campaign under it, or the batch's recipients would be left pending in a completed
 * campaign that never sends again.
 */
class CompletionRaceTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final GreenMailExtension greenMail = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static final Duration INTERVAL = Duration.ofSeconds(10);

    @Test
    void a_run_that_finds_the_queue_empty_waits_for_an_import_batch_in_flight_and_does_not_complete_under_it() throws Exception {
        SettableClock clock = SettableClock.stepping(Instant.parse("2026-11-21T10:00:00Z"), Duration.ofMillis(2));
        OneRelaySettings settings = SendSettingsFixtures.builder().batchMax(100).through("test-relay", 0);
        Connection importer = db.dataSource().getConnection();
        importer.setAutoCommit(false);
        AtomicLong sent = new AtomicLong();
        AtomicBoolean importing = new AtomicBoolean();
        // Once the run has recorded its last recipient, an import batch begins as the importer writes
        // one: the campaign held shared, rows inserted, not yet committed. The run then looks for work left.
        SendEvents events = new SendEvents() {
            @Override
            public void messages(long campaignId, Outcome outcome, long count) {
                if (outcome == Outcome.SENT && sent.addAndGet(count) == 20 && importing.compareAndSet(false, true)) {
                    try {
                        new CampaignTable().lockShared(importer, campaignId);
                        insertLate(importer, campaignId, 5);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        };
        try (SendingHarness h = new SendingHarness(db.dataSource(), clock, greenMail.getSmtp().getPort(), INTERVAL, settings,
                "w1", events); importer) {
            Campaigns campaigns = h.campaigns;
            Scheduler scheduler = h.scheduler;
            long id = campaigns.create(new NewCampaign("Race", "welcome", "news@sender.example", Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
            CampaignFixtures.recipients(db.dataSource(), id, 20);
            assertThat(campaigns.start(id)).isEqualTo(CampaignStatus.RUNNING);

            CompletableFuture<Void> tick = CompletableFuture.runAsync(() -> {
                try {
                    scheduler.tick();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await("the run waits for the campaign's lock, or ends").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(20)).until(() -> tick.isDone() || waitsForCampaignLock());
            assertThat(importing).as("the import batch began").isTrue();
            importer.commit();
            tick.get(60, TimeUnit.SECONDS);

            assertThat(campaigns.get(id).status()).as("the campaign stays running: the batch's recipients are pending")
                    .isEqualTo(CampaignStatus.RUNNING);
            assertThat(count(id, "pending")).isEqualTo(5);

            clock.set(Instant.ofEpochMilli((clock.peek().toEpochMilli() / INTERVAL.toMillis() + 1) * INTERVAL.toMillis()));
            scheduler.tick();
            assertThat(campaigns.get(id).status()).isEqualTo(CampaignStatus.COMPLETED);
            assertThat(count(id, "sent")).isEqualTo(25);
            assertThat(greenMail.getReceivedMessages()).hasSize(25);
        }
    }

    /**
     * True while a run waits for the campaign's exclusive lock: its statement is running on this
     * test's database. (MariaDB reads a row found by its key while it plans the statement, and shows
     * that lock wait in INNODB_TRX as RUNNING without the query, so a LOCK WAIT there never came and
     * the test waited out its 30 s bound each time.)
     */
    private static boolean waitsForCampaignLock() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("""
                     SELECT COUNT(*) FROM information_schema.PROCESSLIST
                     WHERE DB = DATABASE() AND INFO LIKE 'SELECT status FROM campaign WHERE id = % FOR UPDATE'""")) {
            rs.next();
            return rs.getLong(1) > 0;
        }
    }

    private static void insertLate(Connection c, long campaignId, int n) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO recipient (campaign_id, email, name, status, updated_at)
                VALUES (?, ?, ?, 'pending', UTC_TIMESTAMP(3))""")) {
            for (int i = 0; i < n; i++) {
                ps.setLong(1, campaignId);
                ps.setString(2, "late" + i + "@list.example");
                ps.setString(3, "Late " + i);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        StatusCounts.inserted(c, campaignId, n);
    }

    private static long count(long campaignId, String status) throws Exception {
        return CampaignFixtures.recipientCount(db.dataSource(), campaignId, status);
    }
}
