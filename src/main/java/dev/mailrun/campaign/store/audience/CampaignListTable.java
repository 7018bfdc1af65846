package dev.mailrun.campaign.store.audience;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** The campaign_list table: which lists a campaign is sent to. */
public final class CampaignListTable {

    /** A list a campaign targets, by id and name, with its pages' own language (empty: the configured one). */
    public record Target(long listId, String name, Optional<String> language) {}

    /** Replaces the campaign's lists with {@code listIds} (none: it targets no list). */
    public void set(Connection c, long campaignId, Collection<Long> listIds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM campaign_list WHERE campaign_id = ?")) {
            ps.setLong(1, campaignId);
            ps.executeUpdate();
        }
        if (listIds.isEmpty()) {
            return;
        }
        String row = ", (?, ?)";
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO campaign_list (campaign_id, list_id) VALUES "
                + row.substring(2) + row.repeat(listIds.size() - 1))) {
            int i = 1;
            for (long id : listIds) {
                ps.setLong(i++, campaignId);
                ps.setLong(i++, id);
            }
            ps.executeUpdate();
        }
    }

    /** The lists the campaign targets, by name; none for a campaign sent to a CSV only. */
    public List<Target> of(Connection c, long campaignId) throws SQLException {
        List<Target> targets = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT l.id, l.name, l.language FROM campaign_list cl JOIN subscriber_list l ON l.id = cl.list_id
                WHERE cl.campaign_id = ? ORDER BY l.name""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    targets.add(new Target(rs.getLong(1), rs.getString(2), Optional.ofNullable(rs.getString(3))));
                }
            }
        }
        return targets;
    }

    /**
     * The ids of the campaigns neither completed nor cancelled that target the list, at most
     * {@code limit}, lowest first, locked against a change of their lists until the transaction ends.
     */
    public List<Long> openCampaignsOf(Connection c, long listId, int limit) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT cl.campaign_id FROM campaign_list cl JOIN campaign k ON k.id = cl.campaign_id
                WHERE cl.list_id = ? AND k.status NOT IN ('completed', 'cancelled')
                ORDER BY cl.campaign_id LIMIT ? FOR UPDATE""")) {
            ps.setLong(1, listId);
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
