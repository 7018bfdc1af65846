package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.Outcome;
import dev.mailrun.campaign.store.RecipientTable;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the claim indexes let each statement read, counted with the session's own index-read
 * counters: the claim index leads with (campaign, status, run token), so a claim does not walk the
 * rows runs have marked and the clean-up after an abandoned run reads that run's rows only; the
 * domain index keys on whether a row waits (pending or retry), so a paced claim skips the sent.
 */
class RunRowsReadTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");
    private final RecipientTable queue = new RecipientTable(new SuppressionTable());

    @Test
    void a_claim_reads_only_the_rows_it_returns_when_a_run_has_marked_the_rows_before_them() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "held ahead");
        CampaignFixtures.recipients(db.dataSource(), id, 1_000);
        String first = "11111111-1111-1111-1111-111111111111";
        List<Long> firstIds = Transactions.inTransaction(db.dataSource(), c -> queue.claim(c, id, NOW, 600, List.of()))
                .recipients().stream().map(ClaimedRecipient::id).toList();
        int marked = Transactions.inTransaction(db.dataSource(), c -> queue.markSending(c, first, firstIds, NOW));
        assertThat(marked).isEqualTo(600);

        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            long before = indexReads(c);
            List<ClaimedRecipient> claimed = queue.claim(c, id, NOW, 10, List.of()).recipients();
            long read = indexReads(c) - before;
            c.commit();
            assertThat(claimed).hasSize(10);
            assertThat(claimed.get(0).id()).isGreaterThan(claimedMax(id, first));
            // Both claim SELECTs and the suppression check: a few dozen, not the 600 marked rows.
            assertThat(read).isLessThan(100);
        }
    }

    @Test
    void the_clean_up_after_an_abandoned_run_reads_only_that_runs_rows() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "abandoned");
        CampaignFixtures.recipients(db.dataSource(), id, 2_000);
        String live = "33333333-3333-3333-3333-333333333333";
        String dead = "44444444-4444-4444-4444-444444444444";
        List<Long> liveIds = Transactions.inTransaction(db.dataSource(), c -> queue.claim(c, id, NOW, 1_500, List.of()))
                .recipients().stream().map(ClaimedRecipient::id).toList();
        Transactions.inTransaction(db.dataSource(), c -> queue.markSending(c, live, liveIds, NOW));
        List<Long> deadIds = Transactions.inTransaction(db.dataSource(), c -> queue.claim(c, id, NOW, 30, List.of()))
                .recipients().stream().map(ClaimedRecipient::id).toList();
        Transactions.inTransaction(db.dataSource(), c -> queue.markSending(c, dead, deadIds.subList(0, 20), NOW));

        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            long before = indexReads(c);
            int unknown = queue.markUnknown(c, id, dead, NOW);
            long read = indexReads(c) - before;
            c.commit();
            assertThat(unknown).isEqualTo(20);
            // The dead run's 30 rows, not the 1,500 the live run is sending.
            assertThat(read).isLessThan(100);
        }
        try (Connection c = db.dataSource().getConnection()) {
            assertThat(queue.counts(c, id).get(RecipientStatus.UNKNOWN)).isEqualTo(20);
            assertThat(queue.counts(c, id).get(RecipientStatus.SENDING)).isEqualTo(1_500);
            assertThat(queue.counts(c, id).get(RecipientStatus.PENDING)).isEqualTo(480);
        }
        List<Outcome> late = liveIds.stream().<Outcome>map(r -> new Outcome.Sent(r, "<m" + r + "@x>", NOW)).toList();
        int recorded = Transactions.inTransaction(db.dataSource(), c -> queue.record(c, live, late, NOW));
        assertThat(recorded).isEqualTo(1_500);
    }

    @Test
    void a_paced_claim_of_a_domain_reads_only_its_waiting_rows_not_those_sent_or_sending() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "paced");
        CampaignFixtures.recipients(db.dataSource(), id, 1_000);
        String earlier = "55555555-5555-5555-5555-555555555555";
        List<Long> first = Transactions.inTransaction(db.dataSource(), c -> queue.claim(c, id, NOW, 900, List.of()))
                .recipients().stream().map(ClaimedRecipient::id).toList();
        Transactions.inTransaction(db.dataSource(), c -> queue.markSending(c, earlier, first, NOW));
        List<Outcome> sent = first.subList(0, 800).stream().<Outcome>map(r -> new Outcome.Sent(r, "<m" + r + "@x>", NOW)).toList();
        int recorded = Transactions.inTransaction(db.dataSource(), c -> queue.record(c, earlier, sent, NOW));
        assertThat(recorded).isEqualTo(800);

        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            long before = indexReads(c);
            RecipientTable.PacedClaim claim = queue.claimPaced(c, id, NOW, 0, 0, List.of("list.example"),
                    List.of(new RecipientTable.DomainQuota(List.of("list.example"), 10)), List.of());
            long read = indexReads(c) - before;
            c.commit();
            assertThat(claim.claim().recipients()).hasSize(10);
            assertThat(claim.claim().recipients().get(0).id()).isGreaterThan(first.get(first.size() - 1));
            // The ten it returns and a few lookups, not the 800 sent and 100 sending rows of the domain.
            assertThat(read).isLessThan(100);
        }
        try (Connection c = db.dataSource().getConnection()) {
            assertThat(queue.hasRemainingAt(c, id, List.of("list.example"))).isTrue();
            assertThat(queue.hasRemainingAt(c, id, List.of("elsewhere.example"))).isFalse();
        }
    }

    @Test
    void recording_sent_recipients_reads_only_their_rows_not_the_others_the_run_holds() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "recorded");
        CampaignFixtures.recipients(db.dataSource(), id, 2_000);
        String run = "66666666-6666-6666-6666-666666666666";
        List<Long> ids = Transactions.inTransaction(db.dataSource(), c -> queue.claim(c, id, NOW, 2_000, List.of()))
                .recipients().stream().map(ClaimedRecipient::id).toList();
        Transactions.inTransaction(db.dataSource(), c -> queue.markSending(c, run, ids, NOW));
        List<Outcome> sent = ids.subList(1_000, 1_040).stream()
                .<Outcome>map(r -> new Outcome.Sent(r, "<m" + r + "@x>", NOW, "relay-a")).toList();

        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            // A scan in the primary key's order reads rows without an index (Handler_read_rnd_next),
            // which SHOW STATUS also counts for itself: that share is measured and taken off.
            long first = rowsRead(c);
            long own = rowsRead(c) - first;
            long before = rowsRead(c);
            int recorded = queue.record(c, run, sent, NOW);
            long read = rowsRead(c) - before - own;
            c.commit();
            assertThat(recorded).isEqualTo(40);
            // A few reads per recorded row (the row by id, the flush's list of rows), not the 2,000
            // rows this run marked: with the table read first, over 80,000.
            assertThat(read).isLessThan(200);
        }
    }

    /**
     * Rows the session's statements read through an index so far: first lookups plus steps along it.
     * (Not Handler_read_rnd_next: SHOW STATUS itself scans a temporary table.)
     */
    private static long indexReads(Connection c) throws SQLException {
        return handlerReads(c, "Handler_read_key", "Handler_read_next", "Handler_read_prev", "Handler_read_first");
    }

    /** Rows the session's statements read so far, through an index or not, SHOW STATUS's own reads included. */
    private static long rowsRead(Connection c) throws SQLException {
        return handlerReads(c, "Handler_read_key", "Handler_read_next", "Handler_read_prev", "Handler_read_first",
                "Handler_read_rnd_next");
    }

    private static long handlerReads(Connection c, String... counters) throws SQLException {
        long n = 0;
        try (PreparedStatement ps = c.prepareStatement("SHOW SESSION STATUS WHERE Variable_name IN ("
                + String.join(", ", java.util.Collections.nCopies(counters.length, "?")) + ")")) {
            for (int i = 0; i < counters.length; i++) {
                ps.setString(i + 1, counters[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    n += rs.getLong(2);
                }
            }
        }
        return n;
    }

    private static long claimedMax(long campaignId, String token) throws SQLException {
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT MAX(id) FROM recipient WHERE campaign_id = ? AND run_token = ?")) {
            ps.setLong(1, campaignId);
            ps.setString(2, token);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
