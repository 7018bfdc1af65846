package dev.mailrun.campaign.send.scope;

import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.campaign.store.RelayShareTable;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.recipient.RecipientClaims;
import dev.mailrun.campaign.store.recipient.RecipientQueue;
import dev.mailrun.campaign.store.recipient.RecipientResults;
import dev.mailrun.db.Transactions;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The tables the sending task reads and writes, and the pool they are reached through: the
 * recipient table through its claims, its results and its queue's state.
 */
public record Tables(DataSource dataSource, CampaignTable campaigns, RecipientClaims claims, RecipientResults results,
              RecipientQueue queue, InFlightTable inFlight, SuppressionTable suppressions, RelayShareTable shares) {

    public static Tables on(DataSource dataSource) {
        SuppressionTable suppressions = new SuppressionTable();
        return new Tables(dataSource, new CampaignTable(), new RecipientClaims(suppressions), new RecipientResults(),
                new RecipientQueue(), new InFlightTable(), suppressions, new RelayShareTable());
    }

    public <T> T inTransaction(Transactions.Work<T> work) throws SQLException {
        return Transactions.inTransaction(dataSource, work);
    }
}
