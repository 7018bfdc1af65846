package dev.mailrun.campaign.bounce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.unsubscribe.ReturnPaths;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.bounce.BounceKind;
import dev.mailrun.mail.bounce.BounceReport;
import dev.mailrun.testing.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ConcurrentBounceTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final ReturnPaths returnPaths = new ReturnPaths(SigningKey.of("0123456789abcdef0123456789abcdef-test"));
    private final BounceApplier applier = new BounceApplier(returnPaths, new SuppressionTable(), new BounceSettings(100, 0.05, 100));

    @Test
    void the_same_soft_bounces_applied_by_several_workers_at_once_count_once_per_send() throws Exception {
        Rows rows = new Rows(db.dataSource());
        long campaign = rows.campaign("running");
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            // ten sends to one address (the same person imported under ten campaigns' worth of rows)
            long other = i == 0 ? campaign : rows.campaign("running");
            tokens.add(returnPaths.token(other, rows.recipient(other, "full.box@example.net", "sent", null)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Callable<Object>> work = new ArrayList<>();
            for (int worker = 0; worker < 6; worker++) {
                work.add(() -> {
                    for (String token : tokens) {
                        Transactions.inTransaction(db.dataSource(), c -> applier.apply(c, List.of(soft(token)),
                                Instant.parse("2025-03-10T12:00:00Z")));
                    }
                    return null;
                });
            }
            for (Future<Object> f : pool.invokeAll(work)) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(rows.count("SELECT bounces FROM soft_bounce WHERE address = 'full.box@example.net'")).isEqualTo(10);
        assertThat(rows.count("SELECT COUNT(*) FROM bounce_event")).isEqualTo(10);
    }

    private static BounceReport soft(String token) {
        return new BounceReport(BounceKind.SOFT, Optional.of("full.box@example.net"), "4.2.2", OptionalInt.of(452),
                "452 4.2.2 Mailbox full", Optional.empty(), Optional.of(token));
    }
}
