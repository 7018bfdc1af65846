package dev.mailrun.campaign;

import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.audience.CampaignSegmentTable;
import dev.mailrun.campaign.store.audience.SegmentTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The segments a campaign is sent to (docs/AUDIENCE.md, "Campaigns to lists and segments"), named as
 * the operator names them: set at creation, changed while the campaign is a draft. Each name is read
 * under a shared lock, so a segment cannot be deleted between being named and being stored as a target.
 */
final class CampaignSegments {

    private final SegmentTable segments = new SegmentTable();
    private final CampaignSegmentTable targets = new CampaignSegmentTable();
    private final CampaignTable campaigns = new CampaignTable();

    /**
     * The ids of the segments {@code names} names (letter case ignored, a repeat counted once).
     *
     * @throws InvalidFields naming {@code segments}, one problem per unknown name
     */
    Set<Long> resolve(Connection c, List<String> names) throws SQLException {
        Set<Long> ids = new LinkedHashSet<>();
        List<InvalidFields.Problem> problems = new ArrayList<>();
        for (String name : names) {
            String given = name == null ? "" : name.strip();
            segments.lockShared(c, given).ifPresentOrElse(g -> ids.add(g.id()),
                    () -> problems.add(new InvalidFields.Problem("segments", "no segment named '" + given + "'")));
        }
        if (!problems.isEmpty()) {
            throw new InvalidFields(problems);
        }
        return ids;
    }

    /** Stores the segments of a campaign being created, in the caller's transaction. */
    void setAtCreation(Connection c, long campaignId, List<String> names) throws SQLException {
        if (!names.isEmpty()) {
            targets.set(c, campaignId, resolve(c, names));
        }
    }

    /**
     * Replaces the segments of a draft campaign; none: it is sent to no segment.
     *
     * @throws CampaignException when the campaign is not a draft
     */
    void change(Connection c, long campaignId, List<String> names) throws SQLException {
        // Exclusive: a start materialising the segments waits for the change, or the change for the start.
        CampaignStatus status = campaigns.lockExclusive(c, campaignId)
                .orElseThrow(() -> new CampaignException("no campaign with id " + campaignId));
        if (status != CampaignStatus.DRAFT) {
            throw new CampaignException("campaign " + campaignId + " is " + status.dbValue()
                    + "; only a draft campaign's segments can change");
        }
        targets.set(c, campaignId, resolve(c, names));
    }

    /** The names of the campaign's segments, in name order; none for a campaign sent to no segment. */
    List<String> names(Connection c, long campaignId) throws SQLException {
        return targets.of(c, campaignId).stream().map(CampaignSegmentTable.Target::name).toList();
    }
}
