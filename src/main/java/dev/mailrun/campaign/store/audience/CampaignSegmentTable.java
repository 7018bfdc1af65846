package dev.mailrun.campaign.store.audience;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** The campaign_segment table: which segments a campaign is sent to. */
public final class CampaignSegmentTable {

    /** A segment a campaign targets: its id, name and filter (the JSON as saved). */
    public record Target(long segmentId, String name, String filter) {}

    /** Replaces the campaign's segments with {@code segmentIds} (none: it targets no segment). */
    public void set(Connection c, long campaignId, Collection<Long> segmentIds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM campaign_segment WHERE campaign_id = ?")) {
            ps.setLong(1, campaignId);
            ps.executeUpdate();
        }
        if (segmentIds.isEmpty()) {
            return;
        }
        String row = ", (?, ?)";
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO campaign_segment (campaign_id, segment_id) VALUES "
                + row.substring(2) + row.repeat(segmentIds.size() - 1))) {
            int i = 1;
            for (long id : segmentIds) {
                ps.setLong(i++, campaignId);
                ps.setLong(i++, id);
            }
            ps.executeUpdate();
        }
    }

    /** The segments the campaign targets, by name; none for a campaign sent to no segment. */
    public List<Target> of(Connection c, long campaignId) throws SQLException {
        List<Target> targets = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT g.id, g.name, g.filter FROM campaign_segment cs JOIN segment g ON g.id = cs.segment_id
                WHERE cs.campaign_id = ? ORDER BY g.name""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    targets.add(new Target(rs.getLong(1), rs.getString(2), rs.getString(3)));
                }
            }
        }
        return targets;
    }

    /**
     * The ids of the campaigns neither completed nor cancelled that target the segment, at most
     * {@code limit}, lowest first, locked against a change of their segments until the transaction ends.
     */
    public List<Long> openCampaignsOf(Connection c, long segmentId, int limit) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT cs.campaign_id FROM campaign_segment cs JOIN campaign k ON k.id = cs.campaign_id
                WHERE cs.segment_id = ? AND k.status NOT IN ('completed', 'cancelled')
                ORDER BY cs.campaign_id LIMIT ? FOR UPDATE""")) {
            ps.setLong(1, segmentId);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        return ids;
    }
}
