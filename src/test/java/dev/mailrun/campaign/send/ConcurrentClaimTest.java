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

    @Test
    void four_concurrent_claimers_over_many_batches_never_claim_a_row_twice() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "race");
        int rows = 6_000;
        CampaignFixtures.recipients(db.dataSource(), id, rows);
        Set<Long> claimed = ConcurrentHashMap.newKeySet();
        AtomicInteger duplicates = new AtomicInteger();
        AtomicInteger total = new AtomicInteger();
        CyclicBarrier start = new CyclicBarrier(4);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<Integer>> workers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            DataSource ds = db.newPool("claimer-" + w, 2);
            String token = String.format("00000000-0000-0000-0000-%012d", w);
            workers.add(pool.submit(() -> {
                RecipientTable queue = new RecipientTable(new SuppressionTable());
                start.await();
                int batches = 0;
                while (true) {
                    RecipientTable.Claim claim = Transactions.inTransaction(ds,
                            c -> queue.claim(c, id, token, Instant.parse("2026-11-21T12:00:00Z"), 37));
                    if (claim.recipients().isEmpty()) {
                        return batches;
                    }
                    batches++;
                    for (ClaimedRecipient r : claim.recipients()) {
                        total.incrementAndGet();
                        if (!claimed.add(r.id())) {
                            duplicates.incrementAndGet();
                        }
                    }
                    List<Outcome> sent = claim.recipients().stream()
                            .<Outcome>map(r -> new Outcome.Sent(r.id(), "<m" + r.id() + "@x>", Instant.parse("2026-11-21T12:00:00Z")))
                            .toList();
                    int changed = Transactions.inTransaction(ds, c -> queue.record(c, token, sent, Instant.parse("2026-11-21T12:00:01Z")));
                    assertThat(changed).isEqualTo(sent.size());
                }
            }));
        }
        int batches = 0;
        for (Future<Integer> f : workers) {
            batches += f.get();
        }
        pool.shutdown();
        assertThat(duplicates.get()).isZero();
        assertThat(total.get()).isEqualTo(rows);
        assertThat(claimed).hasSize(rows);
        assertThat(batches).isGreaterThanOrEqualTo(rows / 37);
        assertThat(workers).allSatisfy(f -> assertThat(f.get()).isPositive());
    }

    @Test
    void a_run_that_no_longer_holds_its_rows_cannot_write_their_outcome() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "zombie");
        CampaignFixtures.recipients(db.dataSource(), id, 3);
        RecipientTable queue = new RecipientTable(new SuppressionTable());
        String zombie = "11111111-1111-1111-1111-111111111111";
        Instant now = Instant.parse("2026-11-21T12:00:00Z");
        RecipientTable.Claim claim = Transactions.inTransaction(db.dataSource(), c -> queue.claim(c, id, zombie, now, 10));
        assertThat(claim.recipients()).hasSize(3);
        List<Long> ids = claim.recipients().stream().map(ClaimedRecipient::id).toList();
        int sending = Transactions.inTransaction(db.dataSource(), c -> queue.markSending(c, zombie, ids.subList(0, 2), now));
        assertThat(sending).isEqualTo(2);
        int unknown = Transactions.inTransaction(db.dataSource(), c -> queue.markUnknown(c, id, zombie, now));
        assertThat(unknown).isEqualTo(2);   // handed to SMTP: fate unknown
        try (var c = db.dataSource().getConnection()) {
            assertThat(queue.counts(c, id).get(RecipientStatus.PENDING)).isEqualTo(1);   // only held: back in the queue
        }
        List<Outcome> late = claim.recipients().stream().<Outcome>map(r -> new Outcome.Sent(r.id(), "<x>", now)).toList();
        int written = Transactions.inTransaction(db.dataSource(), c -> queue.record(c, zombie, late, now));
        assertThat(written).isZero();
        try (var c = db.dataSource().getConnection()) {
            assertThat(queue.counts(c, id).get(RecipientStatus.UNKNOWN)).isEqualTo(2);
        }
    }
}
