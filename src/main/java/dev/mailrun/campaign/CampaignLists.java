package dev.mailrun.campaign;

import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.audience.CampaignListTable;
import dev.mailrun.campaign.store.audience.SubscriberListTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The lists a campaign is sent to (docs/AUDIENCE.md, "Campaigns to lists"), named as the operator
 * names them: set at creation, changed while the campaign is a draft. Each name is read under a
 * shared lock, so a list cannot be deleted between being named and being stored as a target.
 */
final class CampaignLists {

    private final SubscriberListTable lists = new SubscriberListTable();
    private final CampaignListTable targets = new CampaignListTable();
    private final CampaignTable campaigns = new CampaignTable();

    /**
     * The ids of the lists {@code names} names (letter case ignored, a repeat counted once).
     *
     * @throws InvalidFields naming {@code lists}, one problem per unknown name
     */
    Set<Long> resolve(Connection c, List<String> names) throws SQLException {
        Set<Long> ids = new LinkedHashSet<>();
        List<InvalidFields.Problem> problems = new ArrayList<>();
        for (String name : names) {
            String given = name == null ? "" : name.strip();
            lists.lockShared(c, given).ifPresentOrElse(l -> ids.add(l.id()),
                    () -> problems.add(new InvalidFields.Problem("lists", "no list named '" + given + "'")));
        }
        if (!problems.isEmpty()) {
            throw new InvalidFields(problems);
        }
        return ids;
    }

    /** Stores the lists of a campaign being created, in the caller's transaction. */
    void setAtCreation(Connection c, long campaignId, List<String> names) throws SQLException {
        if (!names.isEmpty()) {
            targets.set(c, campaignId, resolve(c, names));
        }
    }

    /**
     * Replaces the lists of a draft campaign; none: it is sent to its imported recipients only.
     *
     * @throws CampaignException when the campaign is not a draft
     */
    void change(Connection c, long campaignId, List<String> names) throws SQLException {
        // Exclusive: a start materialising the lists waits for the change, or the change for the start.
        CampaignStatus status = campaigns.lockExclusive(c, campaignId)
                .orElseThrow(() -> new CampaignException("no campaign with id " + campaignId));
        if (status != CampaignStatus.DRAFT) {
            throw new CampaignException("campaign " + campaignId + " is " + status.dbValue() + "; only a draft campaign's lists can change");
        }
        targets.set(c, campaignId, resolve(c, names));
    }

    /** The names of the campaign's lists, in name order; none for a campaign sent to a CSV only. */
    List<String> names(Connection c, long campaignId) throws SQLException {
        return targets.of(c, campaignId).stream().map(CampaignListTable.Target::name).toList();
    }
}
