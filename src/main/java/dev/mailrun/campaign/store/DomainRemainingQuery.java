package dev.mailrun.campaign.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * How many of a campaign's recipients at some domains still wait to be sent (pending or retry):
 * what a paced domain group has left, for the ETA {@code campaign status} shows. Counted in the
 * domain claim index alone.
 */
public final class DomainRemainingQuery {

    public long remainingAt(Connection c, long campaignId, List<String> domains) throws SQLException {
        if (domains.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM recipient FORCE INDEX (ix_recipient_domain_claim) "
                + "WHERE campaign_id = ? AND domain IN (" + Sql.placeholders(domains.size()) + ") AND queued = 1")) {
            int i = 1;
            ps.setLong(i++, campaignId);
            for (String d : domains) {
                ps.setString(i++, d);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
