package dev.mailrun.campaign.send.policy;

import dev.mailrun.campaign.model.CampaignTransition;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.recipient.RecipientQueue;
import dev.mailrun.db.Transactions;
import dev.mailrun.scheduler.RunContext;
import java.sql.SQLException;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * A campaign whose expiry has come: every recipient still waiting becomes {@code expired} (never
 * sent), in statements of {@link #ROWS_PER_STATEMENT} rows, one transaction each, and the campaign
 * completes ({@code campaign.expired} when anyone was left unsent). Runs at the start of a run, after rows an earlier run held went back to the queue, so
 * no run holds any of them.
 */
public final class Expiry {

    static final int ROWS_PER_STATEMENT = 5_000;

    private final DataSource dataSource;
    private final CampaignTable campaigns = new CampaignTable();
    private final RecipientQueue recipients = new RecipientQueue();

    public Expiry(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** @return how many recipients expired; {@code completed} tells whether the campaign completed */
    public record Result(long expired, boolean completed) {}

    public Result expire(RunContext ctx, long campaignId, Instant now) throws SQLException {
        long expired = 0;
        int n;
        do {
            n = Transactions.inTransaction(dataSource, c -> recipients.expireWaiting(c, campaignId, now, ROWS_PER_STATEMENT));
            expired += n;
        } while (n == ROWS_PER_STATEMENT);
        long expiredNow = expired;
        boolean completed = Transactions.inTransaction(dataSource, c -> {
            // As the end of a run does: locked first, so no import batch commits between "nothing left" and COMPLETE.
            campaigns.lockExclusive(c, campaignId);
            // campaign.expired (not .completed) when the expiry left someone unsent, this run or an earlier one.
            CampaignTransition end = expiredNow > 0 || recipients.hasExpired(c, campaignId)
                    ? CampaignTransition.EXPIRE : CampaignTransition.COMPLETE;
            boolean done = !recipients.hasWorkLeft(c, campaignId) && campaigns.transition(c, campaignId, end, null, now);
            if (!ctx.checkpoint(c)) {
                c.rollback();
                return false;
            }
            return done;
        });
        return new Result(expired, completed);
    }
}
