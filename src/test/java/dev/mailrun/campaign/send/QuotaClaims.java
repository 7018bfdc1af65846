package dev.mailrun.campaign.send;

import dev.mailrun.campaign.send.policy.DailyQuota;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.db.Transactions;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/** A claimer racing others for a day's volume: it takes slots as a claim does, three at a time, until none is left. */
final class QuotaClaims {

    private QuotaClaims() {}

    /** @return how many slots this claimer took on {@code now}'s day; {@code ids} numbers the made-up recipients */
    static long takeAll(DataSource ds, DailyQuota quota, Instant now, AtomicLong ids) throws Exception {
        long taken = 0;
        while (true) {
            int n = Transactions.inTransaction(ds, c -> {
                DailyQuota.Allowance allowance = quota.allow(c, now, 3, relay -> Long.MAX_VALUE);
                // A real claim selects its recipients here, between the count and its update.
                try (Statement pause = c.createStatement()) {
                    pause.execute("DO SLEEP(0.002)");
                }
                List<ClaimedRecipient> rows = new ArrayList<>();
                for (int i = 0; i < allowance.count(); i++) {
                    rows.add(new ClaimedRecipient(ids.incrementAndGet(), "r@x.example", null, null, 0));
                }
                quota.took(c, allowance, rows);
                return rows.size();
            });
            quota.committed();
            if (n == 0) {
                return taken;
            }
            taken += n;
        }
    }
}
