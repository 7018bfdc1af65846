package dev.mailrun.campaign.send;

import dev.mailrun.campaign.model.CampaignTransition;
import dev.mailrun.scheduler.RunContext;
import java.sql.SQLException;
import java.time.Instant;

/**
 * A campaign whose expiry has come: every recipient still waiting becomes {@code expired} (never
 * sent), in statements of {@link #ROWS_PER_STATEMENT} rows, one transaction each, and the campaign
 * completes. Runs at the start of a run, after rows an earlier run held went back to the queue, so
 * no run holds any of them.
 */
final class Expiry {

    static final int ROWS_PER_STATEMENT = 5_000;

    private final Tables tables;

    Expiry(Tables tables) {
        this.tables = tables;
    }

    /** @return how many recipients expired; {@code completed} tells whether the campaign completed */
    record Result(long expired, boolean completed) {}

    Result expire(RunContext ctx, long campaignId, Instant now) throws SQLException {
        long expired = 0;
        int n;
        do {
            n = tables.inTransaction(c -> tables.recipients().expireWaiting(c, campaignId, now, ROWS_PER_STATEMENT));
            expired += n;
        } while (n == ROWS_PER_STATEMENT);
        boolean completed = tables.inTransaction(c -> {
            // As RunEnd does: locked first, so no import batch commits between "nothing left" and COMPLETE.
            tables.campaigns().lockExclusive(c, campaignId);
            boolean done = !tables.recipients().hasWorkLeft(c, campaignId)
                    && tables.campaigns().transition(c, campaignId, CampaignTransition.COMPLETE, null, now);
            if (!ctx.checkpoint(c)) {
                c.rollback();
                return false;
            }
            return done;
        });
        return new Result(expired, completed);
    }
}
