package dev.mailrun.campaign.send.record;

import dev.mailrun.campaign.send.policy.DailyQuota;
import dev.mailrun.campaign.send.record.ResultBuffer.Taken;
import dev.mailrun.campaign.send.scope.RunScope;
import dev.mailrun.campaign.send.scope.Tables;
import dev.mailrun.campaign.store.Outcome;
import java.sql.SQLException;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a run that lost its lease still writes. A run cut off from the database for longer than its
 * lease goes on holding the outcomes of the messages it sent meanwhile; the run that took the task
 * over turned what it had in flight {@code unknown}, in its name. Once the database answers again,
 * each flush writes the outcomes the buffer holds for the rows still unknown in this run's name
 * ({@code RecipientResults.recordLeftUnknown}, conditional row by row, batched): the sent and the
 * failed ones. Only what the run cannot prove stays unknown — marked and never sent, a transient
 * failure (perhaps a reply that never came), a result lost with the connection.
 * Rows another run took since (requeued, sent again, left unknown by another run) are not touched.
 *
 * <p>No lease fences this transaction: the run has none. The counters in the task's metadata belong
 * to the run that holds the task now and are not written; the campaign's status counts, its events
 * and its daily-cap slots of recipients handed back unsent are, in the same transaction as the rows.
 */
final class LostLeaseResults {

    private static final Logger log = LoggerFactory.getLogger(LostLeaseResults.class);

    private final RunScope run;
    private final ResultBuffer buffer;
    private final DailyQuota quota;

    LostLeaseResults(RunScope run, ResultBuffer buffer, DailyQuota quota) {
        this.run = run;
        this.buffer = buffer;
        this.quota = quota;
    }

    /** Writes what the buffer holds; a transaction that fails puts it back for the next flush. */
    void flush() throws SQLException {
        Taken t = buffer.take();
        if (t.outcomes().isEmpty() && t.suppressions().isEmpty()) {
            return;
        }
        Instant now = run.clock().instant();
        Tables tables = run.tables();
        int recorded;
        try {
            recorded = tables.inTransaction(c -> {
                int n = tables.results().recordLeftUnknown(c, run.campaignId(), run.runToken(), t.outcomes(), now);
                quota.giveBack(c, t.outcomes().stream().filter(o -> o instanceof Outcome.Released)
                        .map(Outcome::recipientId).toList());
                tables.suppressions().add(c, t.suppressions(), now);
                return n;
            });
        } catch (SQLException | RuntimeException e) {
            buffer.restore(t);
            throw e;
        }
        long attempts = t.outcomes().stream().filter(o -> !(o instanceof Outcome.Released)).count();
        if (attempts > 0) {
            log.warn("Campaign {}: run {} lost its lease; recorded {} of its {} outcome(s) on recipients left unknown in its "
                    + "name; the rest stay as they are (taken by another run since, or transient failures)", run.campaignId(), run.runToken(), recorded, attempts);
        }
    }
}
