package dev.mailrun.campaign.store;

import dev.mailrun.campaign.model.TrackingClass;
import dev.mailrun.campaign.model.TrackingEvent;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/** The tracking_event table: every open and click recorded, and what reports, exports and erasure read of it. */
public final class TrackingEventTable {

    /** Rows per INSERT: one statement per flush of up to this many events. */
    static final int ROWS_PER_STATEMENT = 500;
    /** Rows one expiry statement deletes, so that expiry never holds long locks. */
    static final int EXPIRE_LIMIT = 5_000;

    /** How many of one kind and class, overall (link -1) or for one link. */
    public record Count(boolean click, int linkIndex, TrackingClass trackingClass, long total, long unique) {}

    /** A recipient's first and last human open and click; empty where there was none. */
    public record Engagement(Optional<Instant> firstOpen, Optional<Instant> lastOpen, Optional<Instant> firstClick,
                             Optional<Instant> lastClick) {}

    /** Inserts {@code events}, several rows per statement. */
    public void insert(Connection c, List<TrackingEvent> events) throws SQLException {
        for (int from = 0; from < events.size(); from += ROWS_PER_STATEMENT) {
            List<TrackingEvent> part = events.subList(from, Math.min(events.size(), from + ROWS_PER_STATEMENT));
            StringJoiner rows = new StringJoiner(", ");
            part.forEach(e -> rows.add("(?, ?, ?, ?, ?, ?, ?)"));
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tracking_event "
                    + "(campaign_id, recipient_id, kind, link_index, class, client_family, at) VALUES " + rows)) {
                int i = 1;
                for (TrackingEvent e : part) {
                    ps.setLong(i++, e.campaignId());
                    ps.setObject(i++, e.recipientId().orElse(null));
                    ps.setString(i++, e.click() ? "click" : "open");
                    ps.setObject(i++, e.click() ? e.linkIndex() : null);
                    ps.setString(i++, e.trackingClass().dbValue());
                    ps.setString(i++, e.family().orElse(null));
                    SqlTime.set(ps, i++, e.at());
                }
                ps.executeUpdate();
            }
        }
    }

    /**
     * The campaign's counts by kind and class: overall (link -1) and, for clicks, per link. Unique
     * counts distinct recipients, so it is 0 where events carry no recipient (per-recipient off).
     */
    public List<Count> counts(Connection c, long campaignId) throws SQLException {
        List<Count> counts = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT kind, -1, class, COUNT(*), COUNT(DISTINCT recipient_id) FROM tracking_event
                WHERE campaign_id = ? GROUP BY kind, class
                UNION ALL
                SELECT kind, link_index, class, COUNT(*), COUNT(DISTINCT recipient_id) FROM tracking_event
                WHERE campaign_id = ? AND kind = 'click' GROUP BY kind, link_index, class
                ORDER BY 1, 2, 3""")) {
            ps.setLong(1, campaignId);
            ps.setLong(2, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    counts.add(new Count(rs.getString(1).equals("click"), rs.getInt(2), TrackingClass.fromDb(rs.getString(3)),
                            rs.getLong(4), rs.getLong(5)));
                }
            }
        }
        return counts;
    }

    /** Distinct recipients with a human click in the campaign: what an A/B decision by clicks reads. */
    public long humanUniqueClicks(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT COUNT(DISTINCT recipient_id) FROM tracking_event
                WHERE campaign_id = ? AND kind = 'click' AND class = 'human'""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * Distinct recipients of an A/B test share with a human click in the campaign, by their variant
     * (recipient.variant → count): what {@code --pick-by clicks} compares.
     * Clicks recorded without a recipient ({@code tracking.per-recipient=false}) cannot be counted here.
     */
    public Map<Integer, Long> humanClickersByVariant(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT r.variant, COUNT(DISTINCT e.recipient_id) FROM tracking_event e
                JOIN recipient r ON r.id = e.recipient_id
                WHERE e.campaign_id = ? AND e.kind = 'click' AND e.class = 'human' AND r.ab_test_share = 1
                GROUP BY r.variant""")) {
            ps.setLong(1, campaignId);
            Map<Integer, Long> byVariant = new java.util.HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    byVariant.put(rs.getInt(1), rs.getLong(2));
                }
            }
            return byVariant;
        }
    }

    /** Distinct recipients outside an A/B test share (the rest, sent the winner) with a human click in the campaign. */
    public long humanClickersOfRest(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT COUNT(DISTINCT e.recipient_id) FROM tracking_event e
                JOIN recipient r ON r.id = e.recipient_id
                WHERE e.campaign_id = ? AND e.kind = 'click' AND e.class = 'human' AND r.ab_test_share = 0""")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * The first and last human open and click of up to {@code limit} recipients with any, from
     * recipient id {@code fromId} on, in id order (the export reads them page by page beside the recipients).
     */
    public List<Map.Entry<Long, Engagement>> engagement(Connection c, long campaignId, long fromId, int limit)
            throws SQLException {
        List<Map.Entry<Long, Engagement>> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT recipient_id,
                       MIN(CASE WHEN kind = 'open' THEN at END), MAX(CASE WHEN kind = 'open' THEN at END),
                       MIN(CASE WHEN kind = 'click' THEN at END), MAX(CASE WHEN kind = 'click' THEN at END)
                FROM tracking_event WHERE campaign_id = ? AND class = 'human' AND recipient_id >= ?
                GROUP BY recipient_id ORDER BY recipient_id LIMIT ?""")) {
            ps.setLong(1, campaignId);
            ps.setLong(2, fromId);
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(Map.entry(rs.getLong(1), new Engagement(Optional.ofNullable(SqlTime.get(rs, 2)),
                            Optional.ofNullable(SqlTime.get(rs, 3)), Optional.ofNullable(SqlTime.get(rs, 4)),
                            Optional.ofNullable(SqlTime.get(rs, 5)))));
                }
            }
        }
        return out;
    }

    /**
     * Erases the tracking data of the address whose lower-cased form is {@code emailKey} in every tracked
     * campaign, and marks its recipients so that nothing more is recorded for them.
     *
     * @return the events deleted
     */
    public int erase(Connection c, String emailKey) throws SQLException {
        // Through the tracked campaigns, so each lookup uses the recipient's (campaign_id, email_key) key.
        try (PreparedStatement mark = c.prepareStatement("""
                UPDATE recipient SET tracking_erased = 1
                WHERE email_key = ? AND campaign_id IN (SELECT campaign_id FROM campaign_tracking)""")) {
            mark.setString(1, emailKey);
            mark.executeUpdate();
        }
        try (PreparedStatement delete = c.prepareStatement("""
                DELETE FROM tracking_event WHERE recipient_id IN (
                    SELECT id FROM recipient WHERE email_key = ? AND tracking_erased = 1
                    AND campaign_id IN (SELECT campaign_id FROM campaign_tracking))""")) {
            delete.setString(1, emailKey);
            return delete.executeUpdate();
        }
    }

    /** Deletes up to {@link #EXPIRE_LIMIT} events older than {@code before}; returns how many. */
    public int expire(Connection c, Instant before) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM tracking_event WHERE at < ? LIMIT " + EXPIRE_LIMIT)) {
            SqlTime.set(ps, 1, before);
            return ps.executeUpdate();
        }
    }
}
