package dev.mailrun.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.store.audience.CampaignListTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.AudienceFixtures;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.StatusCounts;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kill -9 of a real {@code mailrun campaign start} JVM while its {@code INSERT IGNORE … SELECT} makes a
 * 200,000-person list's subscribers the campaign's recipients: the statement's transaction is rolled
 * back whole (no half of the list, no count without its rows), the campaign stays a draft, and a start
 * again makes every subscriber a recipient exactly once, the status counts exact.
 */
class MaterialiseKillNineTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final int MEMBERS = 200_000;

    @AfterEach
    void clean() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM campaign_list");
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
        }
    }

    @Test
    @Tag("slow")
    void a_kill_mid_materialisation_leaves_nothing_and_the_start_again_adds_everyone_once() throws Exception {
        clean();
        long news = new Lists(db.dataSource(), SettableClock.at("2026-11-24T10:00:00Z"))
                .create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE)).id();
        AudienceFixtures.subscribe(db.dataSource(), news, "k", MEMBERS);
        long campaign = CampaignFixtures.campaign(db.dataSource(), "Big list");
        Transactions.inTransaction(db.dataSource(), c -> {
            new CampaignListTable().set(c, campaign, List.of(news));
            return null;
        });
        Map<String, String> env = WorkerProcess.env(db, 2525, "0");

        boolean seen;
        try (WorkerProcess starting = WorkerProcess.start("materialise-kill", env, "campaign", "start", Long.toString(campaign))) {
            KillNineTest.waitFor(() -> materialising() || !starting.isAlive(), Duration.ofSeconds(60));
            seen = materialising();
            starting.kill9();
        }
        assertThat(seen).as("the kill landed while the INSERT … SELECT ran").isTrue();
        // The server rolls the dead connection's transaction back: all of it, or (had it committed) none.
        // Looked at twice a second: asked every 5 ms, information_schema's transaction list held the
        // rollback back for over ten minutes on MariaDB 10.11 and 11.4; it ended at once when the
        // asking stopped.
        KillNineTest.waitFor(() -> !materialising() && !openTransaction(), Duration.ofMinutes(5), Duration.ofMillis(500));
        long afterKill = CampaignFixtures.recipientCount(db.dataSource(), campaign);
        System.out.printf("[fault] materialise-kill recipients after the kill: %d of %d%n", afterKill, MEMBERS);
        assertThat(afterKill).isIn(0L, (long) MEMBERS);
        assertThat(status(campaign)).isEqualTo("draft");
        StatusCounts.assertExact(db.dataSource(), campaign);

        try (WorkerProcess again = WorkerProcess.start("materialise-again", env, "campaign", "start", Long.toString(campaign))) {
            assertThat(again.waitFor(180)).as("the start again exits 0; see %s", again.log).isZero();
        }
        assertThat(status(campaign)).isEqualTo("running");
        assertThat(CampaignFixtures.recipientCount(db.dataSource(), campaign)).isEqualTo(MEMBERS);
        assertThat(count("SELECT COUNT(DISTINCT email_key) FROM recipient WHERE campaign_id = " + campaign)).isEqualTo(MEMBERS);
        StatusCounts.assertExact(db.dataSource(), campaign);
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("UPDATE task SET enabled = 0"); // no other test's worker sends this campaign
            s.execute("UPDATE campaign SET status = 'cancelled' WHERE id = " + campaign);
        }
    }

    /** The materialisation's statement runs on some connection of the server. */
    private static boolean materialising() throws Exception {
        return count("SELECT COUNT(*) FROM information_schema.processlist WHERE info LIKE 'INSERT IGNORE INTO recipient%'") > 0;
    }

    /** A transaction that has written (the killed start's) is still open or rolling back. */
    private static boolean openTransaction() throws Exception {
        return count("SELECT COUNT(*) FROM information_schema.innodb_trx WHERE trx_rows_modified > 0") > 0;
    }

    private static String status(long campaign) throws Exception {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT status FROM campaign WHERE id = ?")) {
            ps.setLong(1, campaign);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private static long count(String sql) throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
