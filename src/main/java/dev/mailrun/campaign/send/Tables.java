package dev.mailrun.campaign.send;

import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.campaign.store.RecipientTable;
import dev.mailrun.campaign.store.RelayShareTable;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import java.sql.SQLException;
import javax.sql.DataSource;

/** The tables the sending task reads and writes, and the pool they are reached through. */
record Tables(DataSource dataSource, CampaignTable campaigns, RecipientTable recipients, InFlightTable inFlight,
              SuppressionTable suppressions, RelayShareTable shares) {

    static Tables on(DataSource dataSource) {
        SuppressionTable suppressions = new SuppressionTable();
        return new Tables(dataSource, new CampaignTable(), new RecipientTable(suppressions), new InFlightTable(),
                suppressions, new RelayShareTable());
    }

    <T> T inTransaction(Transactions.Work<T> work) throws SQLException {
        return Transactions.inTransaction(dataSource, work);
    }
}
