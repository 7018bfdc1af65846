package dev.mailrun.campaign.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.FailureFilter;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.recipient.BounceAttribution;
import dev.mailrun.campaign.store.recipient.RecipientClaims;
import dev.mailrun.campaign.store.recipient.RecipientInserts;
import dev.mailrun.campaign.store.recipient.RecipientQueue;
import dev.mailrun.campaign.store.recipient.RecipientResults;
import dev.mailrun.campaign.store.recipient.StatusCountTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The maintained status counts against a fresh {@code COUNT(*) GROUP BY status, relay} of the
 * rows, after every kind of change the store makes: import, claim of suppressed addresses, results
 * of every kind (also over a row a bounce failed meanwhile), bounces, a dead run's unknowns,
 * requeues, expiry — one after the other, then all at once from several threads.
 */
class StatusCountTableTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant NOW = Instant.parse("2026-11-26T09:00:00Z");
    private final SuppressionTable suppressions = new SuppressionTable();
    private final RecipientClaims claims = new RecipientClaims(suppressions);
    private final RecipientResults results = new RecipientResults();
    private final RecipientQueue queue = new RecipientQueue();
    private final BounceAttribution bounces = new BounceAttribution();
    private final RecipientInserts inserts = new RecipientInserts();
    private final StatusCountTable counts = new StatusCountTable();

    @Test
    void after_every_kind_of_change_the_counts_equal_a_fresh_count_of_the_rows() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "mixed");
        importRows(id, "r", 0, 60);
        importRows(id, "r", 50, 20); // 50..59 are there already: only 60..69 go in
        assertExact(id, Map.of("pending", Map.of("", 70L)));

        tx(c -> suppressions.add(c, List.of(new SuppressionTable.Entry("r3@list.example", SuppressionReason.MANUAL, "test"),
                new SuppressionTable.Entry("r7@list.example", SuppressionReason.MANUAL, "test")), NOW));
        List<Long> first = tx(c -> claims.claim(c, id, NOW, 20, List.of()).recipients().stream().map(ClaimedRecipient::id).toList());
        assertThat(first).hasSize(18);
        assertExact(id, null);

        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < first.size(); i++) {
            long r = first.get(i);
            outcomes.add(i < 8 ? new Outcome.Sent(r, "<m" + r + "@x>", NOW, "relay-a")
                    : i < 13 ? new Outcome.Retry(r, NOW.minusSeconds(1), 451, "later", "relay-b")
                    : i < 16 ? new Outcome.Failed(r, 550, "no such user", "relay-a")
                    : new Outcome.Released(r));
        }
        tx(c -> results.record(c, id, outcomes, NOW));
        assertExact(id, null);
        assertThat(kept(id).get("sent")).isEqualTo(Map.of("relay-a", 8L));

        // A bounce fails two sent rows; then a later attempt's result overtakes one of them.
        tx(c -> bounces.markBounced(c, id, first.get(0), 550, "bounce 5.1.1", NOW));
        tx(c -> bounces.markBounced(c, id, first.get(1), 550, "bounce 5.1.1", NOW));
        boolean again = tx(c -> bounces.markBounced(c, id, first.get(1), 550, "again", NOW));
        assertThat(again).as("already failed").isFalse();
        tx(c -> results.record(c, id, List.of(new Outcome.Sent(first.get(1), "<again@x>", NOW, "relay-b")), NOW));
        assertExact(id, null);

        // A run dies with ten in flight (retries due first, then pending); requeued, they wait again.
        List<Long> inFlight = tx(c -> claims.claim(c, id, NOW, 10, List.of()).recipients().stream().map(ClaimedRecipient::id).toList());
        int unknown = tx(c -> results.markUnknown(c, id, inFlight, NOW));
        assertThat(unknown).isEqualTo(10);
        assertExact(id, null);
        int requeued = tx(c -> queue.requeueUnknown(c, id, NOW));
        assertThat(requeued).isEqualTo(10);
        assertExact(id, null);

        List<Long> failed = tx(c -> queue.failed(c, id, FailureFilter.all(), 0, 100).stream()
                .map(RecipientQueue.FailedRecipient::id).toList());
        int handedBack = tx(c -> queue.requeueFailed(c, id, failed, NOW));
        assertThat(handedBack).isEqualTo(failed.size()).isPositive();
        assertExact(id, null);

        int expired;
        do {
            expired = tx(c -> queue.expireWaiting(c, id, NOW, 7));
        } while (expired == 7);
        assertExact(id, null);
        assertThat(kept(id)).doesNotContainKeys("pending", "retry");
    }

    @Test
    void imports_results_bounces_and_requeues_at_once_leave_the_counts_exact() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "concurrent");
        importRows(id, "s", 0, 2_000);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> work = new ArrayList<>();
            work.add(pool.submit(() -> {
                for (int b = 0; b < 20; b++) {
                    importRows(id, "late", b * 100, 100);
                }
                return null;
            }));
            work.add(pool.submit(() -> {
                Random random = new Random(1);
                for (int b = 0; b < 30; b++) {
                    List<Long> claimed = tx(c -> claims.claim(c, id, NOW, 50, List.of()).recipients().stream()
                            .map(ClaimedRecipient::id).toList());
                    List<Outcome> out = new ArrayList<>();
                    for (long r : claimed) {
                        int k = random.nextInt(10);
                        out.add(k < 7 ? new Outcome.Sent(r, "<c" + r + "@x>", NOW, "relay-" + k % 2)
                                : k < 9 ? new Outcome.Failed(r, 550, "no", "relay-a") : new Outcome.Retry(r, NOW, 451, "later", null));
                    }
                    tx(c -> results.record(c, id, out, NOW));
                }
                return null;
            }));
            work.add(pool.submit(() -> {
                for (int b = 0; b < 200; b++) {
                    long r = tx(c -> firstSentId(c, id));
                    if (r > 0) {
                        tx(c -> bounces.markBounced(c, id, r, 550, "bounce", NOW));
                    }
                }
                return null;
            }));
            work.add(pool.submit(() -> {
                for (int b = 0; b < 20; b++) {
                    List<Long> failed = tx(c -> queue.failed(c, id, FailureFilter.all(), 0, 20)
                            .stream().map(RecipientQueue.FailedRecipient::id).toList());
                    tx(c -> queue.requeueFailed(c, id, failed, NOW));
                }
                return null;
            }));
            for (Future<?> f : work) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertExact(id, null);
        assertThat(kept(id).values().stream().flatMap(m -> m.values().stream()).mapToLong(Long::longValue).sum())
                .isEqualTo(4_000);
    }

    private static long firstSentId(Connection c, long campaignId) throws SQLException {
        try (var ps = c.prepareStatement("SELECT MAX(id) FROM recipient WHERE campaign_id = ? AND status = 'sent'")) {
            ps.setLong(1, campaignId);
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private void importRows(long campaignId, String prefix, int from, int n) throws Exception {
        tx(c -> {
            try (RecipientInserts.Inserts batch = inserts.inserts(c, campaignId, "import-" + prefix + from, NOW, java.util.Optional.empty())) {
                List<RecipientInserts.NewRecipient> rows = new ArrayList<>();
                for (int i = from; i < from + n; i++) {
                    rows.add(new RecipientInserts.NewRecipient(prefix + i + "@list.example", null, null, null, null, i + 1));
                }
                return batch.insert(rows);
            }
        });
    }

    /** The maintained counts equal a fresh count (and {@code expected}, when given). */
    private void assertExact(long campaignId, Map<String, Map<String, Long>> expected) throws Exception {
        try (Connection c = connection()) {
            Map<String, Map<String, Long>> kept = counts.read(c, campaignId);
            assertThat(kept).isEqualTo(counts.recount(c, campaignId));
            if (expected != null) {
                assertThat(kept).isEqualTo(expected);
            }
        }
    }

    private static Connection connection() throws SQLException {
        return db.dataSource().getConnection();
    }

    private Map<String, Map<String, Long>> kept(long campaignId) throws SQLException {
        try (Connection c = connection()) {
            return counts.read(c, campaignId);
        }
    }

    private static <T> T tx(Transactions.Work<T> work) throws SQLException {
        return Transactions.inTransaction(db.dataSource(), work);
    }
}
