package dev.mailrun.campaign.send;

import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.Outcome;
import dev.mailrun.campaign.store.RecipientTable;
import dev.mailrun.campaign.store.SuppressionTable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.db.Transactions;
import dev.mailrun.testing.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ConcurrentClaimTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    /**
     * Only one run of a campaign's task holds its lease, but a run that lost it may still be going:
     * claims read without taking, so racing runs read the same rows, and the mark is where one of
     * them takes each row. Four runs racing over one queue: every row is taken, sent and recorded by
     * exactly one of them.
     */
    @Test
    void four_runs_racing_over_one_queue_never_take_a_row_twice() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "race");
        int rows = 6_000;
        CampaignFixtures.recipients(db.dataSource(), id, rows);
        Set<Long> taken = ConcurrentHashMap.newKeySet();
        AtomicInteger duplicates = new AtomicInteger();
        AtomicInteger total = new AtomicInteger();
        CyclicBarrier start = new CyclicBarrier(4);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<Integer>> workers = new ArrayList<>();
        Instant now = Instant.parse("2026-11-21T12:00:00Z");
        for (int w = 0; w < 4; w++) {
            DataSource ds = db.newPool("claimer-" + w, 2);
            String token = String.format("00000000-0000-0000-0000-%012d", w);
            workers.add(pool.submit(() -> {
                RecipientTable queue = new RecipientTable(new SuppressionTable());
                start.await();
                int marked = 0;
                while (true) {
                    RecipientTable.Claim claim = Transactions.inTransaction(ds, c -> queue.claim(c, id, now, 37, List.of()));
                    if (claim.recipients().isEmpty()) {
                        return marked;
                    }
                    List<Long> ids = claim.recipients().stream().map(ClaimedRecipient::id).toList();
                    List<Long> mine = Transactions.inTransaction(ds, c -> {
                        int n = queue.markSending(c, token, ids, now);
                        List<Long> got = markedBy(c, token);
                        assertThat(got).hasSize(n);
                        return got;
                    });
                    marked += mine.size();
                    for (long r : mine) {
                        total.incrementAndGet();
                        if (!taken.add(r)) {
                            duplicates.incrementAndGet();
                        }
                    }
                    List<Outcome> sent = mine.stream().<Outcome>map(r -> new Outcome.Sent(r, "<m" + r + "@x>", now)).toList();
                    int changed = Transactions.inTransaction(ds, c -> queue.record(c, token, sent, now.plusSeconds(1)));
                    assertThat(changed).isEqualTo(sent.size());
                }
            }));
        }
        for (Future<Integer> f : workers) {
            f.get();
        }
        pool.shutdown();
        assertThat(duplicates.get()).isZero();
        assertThat(total.get()).isEqualTo(rows);
        assertThat(taken).hasSize(rows);
        try (var c = db.dataSource().getConnection()) {
            assertThat(new RecipientTable(new SuppressionTable()).counts(c, id).get(RecipientStatus.SENT)).isEqualTo(rows);
        }
    }

    @Test
    void a_claim_never_returns_the_runs_own_batch_that_is_not_marked_yet() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "ahead");
        CampaignFixtures.recipients(db.dataSource(), id, 30);
        RecipientTable queue = new RecipientTable(new SuppressionTable());
        Instant now = Instant.parse("2026-11-21T12:00:00Z");
        List<Long> batch = Transactions.inTransaction(db.dataSource(), c -> queue.claim(c, id, now, 10, List.of()))
                .recipients().stream().map(ClaimedRecipient::id).toList();
        String run = "22222222-2222-2222-2222-222222222222";
        // The first four of the batch are marked, the other six not yet: the claim ahead skips all ten.
        Transactions.inTransaction(db.dataSource(), c -> queue.markSending(c, run, batch.subList(0, 4), now));
        List<Long> next = Transactions.inTransaction(db.dataSource(), c -> queue.claim(c, id, now, 10, batch))
                .recipients().stream().map(ClaimedRecipient::id).toList();
        assertThat(next).hasSize(10).doesNotContainAnyElementsOf(batch);
        List<Long> rest = Transactions.inTransaction(db.dataSource(), c -> queue.claim(c, id, now, 30, next))
                .recipients().stream().map(ClaimedRecipient::id).toList();
        assertThat(rest).as("the six of the first batch not marked are still in the queue for a later claim")
                .containsAll(batch.subList(4, 10)).doesNotContainAnyElementsOf(next).doesNotContainAnyElementsOf(batch.subList(0, 4));
    }

    private static List<Long> markedBy(java.sql.Connection c, String token) throws java.sql.SQLException {
        List<Long> ids = new ArrayList<>();
        try (var ps = c.prepareStatement("SELECT id FROM recipient WHERE run_token = ? AND status = 'sending'")) {
            ps.setString(1, token);
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        return ids;
    }

    @Test
    void a_run_that_no_longer_holds_its_rows_cannot_write_their_outcome() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "zombie");
        CampaignFixtures.recipients(db.dataSource(), id, 3);
        RecipientTable queue = new RecipientTable(new SuppressionTable());
        String zombie = "11111111-1111-1111-1111-111111111111";
        Instant now = Instant.parse("2026-11-21T12:00:00Z");
        RecipientTable.Claim claim = Transactions.inTransaction(db.dataSource(), c -> queue.claim(c, id, now, 10, List.of()));
        assertThat(claim.recipients()).hasSize(3);
        List<Long> ids = claim.recipients().stream().map(ClaimedRecipient::id).toList();
        int sending = Transactions.inTransaction(db.dataSource(), c -> queue.markSending(c, zombie, ids.subList(0, 2), now));
        assertThat(sending).isEqualTo(2);
        int unknown = Transactions.inTransaction(db.dataSource(), c -> queue.markUnknown(c, id, zombie, now));
        assertThat(unknown).isEqualTo(2);   // handed to SMTP: fate unknown
        try (var c = db.dataSource().getConnection()) {
            assertThat(queue.counts(c, id).get(RecipientStatus.PENDING)).isEqualTo(1);   // never marked: still in the queue
        }
        List<Outcome> late = claim.recipients().stream().<Outcome>map(r -> new Outcome.Sent(r.id(), "<x>", now)).toList();
        int written = Transactions.inTransaction(db.dataSource(), c -> queue.record(c, zombie, late, now));
        assertThat(written).isZero();
        try (var c = db.dataSource().getConnection()) {
            assertThat(queue.counts(c, id).get(RecipientStatus.UNKNOWN)).isEqualTo(2);
        }
    }
}
