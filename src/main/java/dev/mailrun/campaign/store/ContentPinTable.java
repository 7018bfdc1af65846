package dev.mailrun.campaign.store;

import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pins of campaigns and their A/B variants (campaign.template_version,
 * campaign_variant.template_version) and campaign_content_change, the record of every pin and move.
 */
public final class ContentPinTable {

    /** A campaign's template and its pinned version; the version is empty for a campaign never pinned. */
    public record CampaignPin(String template, Optional<Integer> version) {}

    /** A variant with a template of its own, and its pinned version (empty: never pinned). */
    public record VariantPin(int position, String variant, String template, Optional<Integer> version) {}

    /** One pin or move: the variant is empty for the campaign's own template. */
    public record Change(Optional<String> variant, String template, Optional<Integer> from, int to, String by, Instant at) {}

    /** The campaign's template and pin; empty when there is no such campaign. */
    public Optional<CampaignPin> campaign(Connection c, long campaignId, boolean lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT template, template_version FROM campaign WHERE id = ?"
                + (lock ? " FOR UPDATE" : ""))) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new CampaignPin(rs.getString(1), version(rs, 2))) : Optional.empty();
            }
        }
    }

    /** The variants of the campaign that have a template of their own, in position order. */
    public List<VariantPin> variants(Connection c, long campaignId) throws SQLException {
        List<VariantPin> pins = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT position, name, template, template_version FROM campaign_variant
                WHERE campaign_id = ? AND template IS NOT NULL ORDER BY position""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    pins.add(new VariantPin(rs.getInt(1), rs.getString(2), rs.getString(3), version(rs, 4)));
                }
            }
        }
        return pins;
    }

    /** Pins the campaign's template (its name too: a draft may change template) and records the change. */
    public void pinCampaign(Connection c, long campaignId, Optional<Integer> from, ContentPin to, String by, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE campaign SET template = ?, template_version = ? WHERE id = ?")) {
            ps.setString(1, to.template());
            ps.setInt(2, to.version());
            ps.setLong(3, campaignId);
            ps.executeUpdate();
        }
        record(c, campaignId, Optional.empty(), from, to, by, now);
    }

    /** Pins a variant's own template and records the change. */
    public void pinVariant(Connection c, long campaignId, String variant, Optional<Integer> from, ContentPin to, String by,
                           Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE campaign_variant SET template_version = ? WHERE campaign_id = ? AND name = ? AND template = ?")) {
            ps.setInt(1, to.version());
            ps.setLong(2, campaignId);
            ps.setString(3, variant);
            ps.setString(4, to.template());
            ps.executeUpdate();
        }
        record(c, campaignId, Optional.of(variant), from, to, by, now);
    }

    private static void record(Connection c, long campaignId, Optional<String> variant, Optional<Integer> from, ContentPin to,
                               String by, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO campaign_content_change (campaign_id, variant, template, from_version, to_version, changed_by,
                    changed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)""")) {
            ps.setLong(1, campaignId);
            ps.setString(2, variant.orElse(null));
            ps.setString(3, to.template());
            ps.setObject(4, from.orElse(null));
            ps.setInt(5, to.version());
            ps.setString(6, by);
            SqlTime.set(ps, 7, now);
            ps.executeUpdate();
        }
    }

    /** The campaign's pins and moves, oldest first. */
    public List<Change> changes(Connection c, long campaignId) throws SQLException {
        List<Change> all = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT variant, template, from_version, to_version, changed_by, changed_at FROM campaign_content_change
                WHERE campaign_id = ? ORDER BY changed_at, id""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    all.add(new Change(Optional.ofNullable(rs.getString(1)), rs.getString(2), version(rs, 3), rs.getInt(4),
                            rs.getString(5), SqlTime.get(rs, "changed_at")));
                }
            }
        }
        return all;
    }

    /** Campaigns not yet pinned that may still send, id to template: what an upgrade pins. */
    public Map<Long, String> unpinned(Connection c) throws SQLException {
        Map<Long, String> all = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id, template FROM campaign WHERE template_version IS NULL AND status NOT IN ('completed', 'cancelled')
                ORDER BY id""");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                all.put(rs.getLong(1), rs.getString(2));
            }
        }
        return all;
    }

    /**
     * The ids of the campaigns (up to {@code limit}) that pinned {@code template}'s version {@code version}
     * at any time: what they sent, or will send, was rendered from it.
     */
    public List<Long> using(Connection c, String template, int version, int limit) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT DISTINCT campaign_id FROM campaign_content_change WHERE template = ? AND to_version = ?
                ORDER BY campaign_id LIMIT ?""")) {
            ps.setString(1, template);
            ps.setInt(2, version);
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        return ids;
    }

    private static Optional<Integer> version(ResultSet rs, int column) throws SQLException {
        int v = rs.getInt(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(v);
    }
}
