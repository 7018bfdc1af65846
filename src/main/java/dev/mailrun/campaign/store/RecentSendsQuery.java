package dev.mailrun.campaign.store;

import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * How many of a campaign's recipients were sent since an instant: the current rate {@code campaign
 * status} shows. Read from the rows' {@code sent_at} (the sending run's clock, UTC) through the
 * claim index's (campaign, status) range; no index of its own, so that recording a result writes
 * no more index entries than it does.
 */
public final class RecentSendsQuery {

    public long sentSince(Connection c, long campaignId, Instant since) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT COUNT(*) FROM recipient WHERE campaign_id = ? AND status = 'sent' AND sent_at >= ?""")) {
            ps.setLong(1, campaignId);
            SqlTime.set(ps, 2, since);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
