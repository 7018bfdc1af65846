package dev.mailrun.campaign;

import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * The lists and segments a campaign is sent to (docs/AUDIENCE.md, "Campaigns to lists and segments"):
 * read them, and replace them while the campaign is a draft ({@link CampaignLists}, {@link CampaignSegments}).
 */
public final class CampaignTargets {

    private final DataSource dataSource;
    private final CampaignTable campaigns = new CampaignTable();
    private final CampaignLists lists = new CampaignLists();
    private final CampaignSegments segments = new CampaignSegments();

    CampaignTargets(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Replaces the lists a draft campaign is sent to; none: no list. Returns them by name.
     *
     * @throws dev.mailrun.campaign.model.InvalidFields naming {@code lists} for each unknown list
     * @throws CampaignException when the campaign is not a draft
     */
    public List<String> setLists(long id, List<String> names) throws SQLException {
        return Transactions.inTransaction(dataSource, c -> {
            lists.change(c, id, List.copyOf(names));
            return lists.names(c, id);
        });
    }

    /** The names of the lists the campaign is sent to; none for a campaign sent to no list. */
    public List<String> lists(long id) throws SQLException {
        try (Connection c = existing(id)) {
            return lists.names(c, id);
        }
    }

    /**
     * Replaces the segments a draft campaign is sent to; none: no segment. Returns them by name.
     *
     * @throws dev.mailrun.campaign.model.InvalidFields naming {@code segments} for each unknown segment
     * @throws CampaignException when the campaign is not a draft
     */
    public List<String> setSegments(long id, List<String> names) throws SQLException {
        return Transactions.inTransaction(dataSource, c -> {
            segments.change(c, id, List.copyOf(names));
            return segments.names(c, id);
        });
    }

    /** The names of the segments the campaign is sent to; none for a campaign sent to no segment. */
    public List<String> segments(long id) throws SQLException {
        try (Connection c = existing(id)) {
            return segments.names(c, id);
        }
    }

    /** A connection, once the campaign is known to exist. */
    private Connection existing(long id) throws SQLException {
        Connection c = dataSource.getConnection();
        try {
            if (campaigns.find(c, id).isEmpty()) {
                throw new CampaignException("no campaign with id " + id);
            }
            return c;
        } catch (RuntimeException | SQLException e) {
            c.close();
            throw e;
        }
    }
}
