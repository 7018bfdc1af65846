package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.Outcome;
import dev.mailrun.campaign.store.recipient.RecipientClaims;
import dev.mailrun.campaign.store.recipient.RecipientCounts;
import dev.mailrun.campaign.store.recipient.RecipientQueue;
import dev.mailrun.campaign.store.recipient.RecipientResults;
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
 * What the indexes let each statement on the sending path read, counted with the session's own
 * index-read counters: a claim does not walk the rows already sent (the claim index leads with
 * campaign and status), the clean-up after a dead run reads only what it had in flight (by primary
 * key), the domain index keys on whether a row waits (pending or retry), so a paced claim skips the
 * sent, and recording results reads only their rows.
 */
class RunRowsReadTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");
    private final RecipientClaims claims = new RecipientClaims(new SuppressionTable());
    private final RecipientResults results = new RecipientResults();
    private final RecipientCounts counts = new RecipientCounts();
    private final RecipientQueue queue = new RecipientQueue();

    @Test
    void a_claim_reads_only_the_rows_it_returns_when_the_rows_before_them_were_sent() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "sent before");
        CampaignFixtures.recipients(db.dataSource(), id, 1_000);
        List<Long> firstIds = claim(id, 600, List.of());
        assertThat(record(id, sent(firstIds))).isEqualTo(600);

        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            long before = indexReads(c);
            List<ClaimedRecipient> claimed = claims.claim(c, id, NOW, 10, List.of()).recipients();
            long read = indexReads(c) - before;
            c.commit();
            assertThat(claimed).hasSize(10);
            assertThat(claimed.get(0).id()).isGreaterThan(firstIds.get(firstIds.size() - 1));
            // Both claim SELECTs and the suppression check: a few dozen, not the 600 sent rows.
            assertThat(read).isLessThan(100);
        }
    }

    @Test
    void the_clean_up_after_a_dead_run_reads_only_what_it_had_in_flight() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "abandoned");
        CampaignFixtures.recipients(db.dataSource(), id, 2_000);
        List<Long> ids = claim(id, 2_000, List.of());
        List<Long> inFlight = ids.subList(1_500, 1_520);

        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            long before = indexReads(c);
            int unknown = results.markUnknown(c, id, inFlight, java.util.Optional.empty(), NOW);
            long read = indexReads(c) - before;
            c.commit();
            assertThat(unknown).isEqualTo(20);
            // The dead run's 20 rows by primary key, not the campaign's 2,000.
            assertThat(read).isLessThan(100);
        }
        try (Connection c = db.dataSource().getConnection()) {
            assertThat(counts.counts(c, id, List.of()).get(RecipientStatus.UNKNOWN)).isEqualTo(20);
            assertThat(counts.counts(c, id, List.of()).get(RecipientStatus.PENDING)).isEqualTo(1_980);
        }
    }

    @Test
    void a_paced_claim_of_a_domain_reads_only_its_waiting_rows_not_those_sent() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "paced");
        CampaignFixtures.recipients(db.dataSource(), id, 1_000);
        List<Long> first = claim(id, 900, List.of());
        assertThat(record(id, sent(first.subList(0, 800)))).isEqualTo(800);
        List<Long> held = first.subList(800, 900);

        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            long before = indexReads(c);
            RecipientClaims.PacedClaim claim = claims.claimPaced(c, id, NOW, 0, 0, List.of("list.example"),
                    List.of(new RecipientClaims.DomainQuota(List.of("list.example"), 10)), held);
            long read = indexReads(c) - before;
            c.commit();
            assertThat(claim.claim().recipients()).hasSize(10);
            assertThat(claim.claim().recipients().get(0).id()).isGreaterThan(first.get(first.size() - 1));
            // The ten it returns, the 100 the run holds (still waiting, left out by id) and a few
            // lookups: not the 800 sent rows of the domain.
            assertThat(read).isLessThan(200);
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
        List<Long> ids = claim(id, 2_000, List.of());
        List<Outcome> sent = ids.subList(1_000, 1_040).stream()
                .<Outcome>map(r -> new Outcome.Sent(r, "<m" + r + "@x>", NOW, "relay-a")).toList();

        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            // A scan in the primary key's order reads rows without an index (Handler_read_rnd_next),
            // which SHOW STATUS also counts for itself: that share is measured and taken off.
            long first = rowsRead(c);
            long own = rowsRead(c) - first;
            long before = rowsRead(c);
            int recorded = results.record(c, id, sent, NOW);
            long read = rowsRead(c) - before - own;
            c.commit();
            assertThat(recorded).isEqualTo(40);
            // A few reads per recorded row (the row by id, the flush's list of rows), not the 2,000
            // rows of the campaign: with the table read first, over 80,000.
            assertThat(read).isLessThan(200);
        }
    }

    private List<Long> claim(long campaignId, int limit, List<Long> held) throws Exception {
        return Transactions.inTransaction(db.dataSource(), c -> claims.claim(c, campaignId, NOW, limit, held))
                .recipients().stream().map(ClaimedRecipient::id).toList();
    }

    private static List<Outcome> sent(List<Long> ids) {
        return ids.stream().<Outcome>map(r -> new Outcome.Sent(r, "<m" + r + "@x>", NOW)).toList();
    }

    private int record(long campaignId, List<Outcome> outcomes) throws Exception {
        return Transactions.inTransaction(db.dataSource(), c -> results.record(c, campaignId, outcomes, NOW));
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
}
