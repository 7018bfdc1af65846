package dev.mailrun.campaign.unsubscribe;

import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import javax.sql.DataSource;

/** Puts the address of a verified unsubscribe request on the suppression list. */
public final class Unsubscriber {

    /** What an unsubscribe request achieved. */
    public enum Result { UNSUBSCRIBED, ALREADY_SUPPRESSED, INVALID_ADDRESS }

    private final DataSource dataSource;
    private final SuppressionTable suppressions;
    private final Clock clock;

    public Unsubscriber(DataSource dataSource, SuppressionTable suppressions, Clock clock) {
        this.dataSource = dataSource;
        this.suppressions = suppressions;
        this.clock = clock;
    }

    /** Idempotent: a second request for the same address changes nothing and says so. */
    public Result unsubscribe(UnsubscribeTarget target) throws SQLException {
        if (!(EmailAddress.check(target.address()) instanceof EmailAddress.Valid valid)) {
            return Result.INVALID_ADDRESS;
        }
        SuppressionTable.Entry entry = new SuppressionTable.Entry(valid.address().suppressionKey(),
                SuppressionReason.UNSUBSCRIBED, "unsubscribe:campaign=" + target.campaignId());
        int added = Transactions.inTransaction(dataSource, c -> suppressions.add(c, List.of(entry), clock.instant()));
        return added > 0 ? Result.UNSUBSCRIBED : Result.ALREADY_SUPPRESSED;
    }
}
