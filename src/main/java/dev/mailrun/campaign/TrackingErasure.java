package dev.mailrun.campaign;

import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.store.TrackingEventTable;
import dev.mailrun.db.Transactions;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Erases one address's tracking data ({@code tracking erase ADDRESS}): its opens and clicks in every
 * tracked campaign are deleted and its recipients marked, so that its tracking links answer 404 and
 * record nothing more (its unsubscribe link keeps working). Reports drop by what was deleted.
 */
public final class TrackingErasure {

    private final DataSource dataSource;
    private final TrackingEventTable events = new TrackingEventTable();

    public TrackingErasure(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * @return the events deleted
     * @throws CampaignException when {@code address} is not an email address
     */
    public int erase(String address) throws SQLException {
        if (!(EmailAddress.check(address) instanceof EmailAddress.Valid valid)) {
            throw new CampaignException("'" + address + "' is not an email address");
        }
        // Whatever letter case it was imported in: recipients are told apart by the lower-cased address.
        String key = valid.address().suppressionKey();
        return Transactions.inTransaction(dataSource, c -> events.erase(c, key));
    }
}
