package dev.mailrun.campaign.store.recipient;

import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The campaigns an address was a recipient of, for a person's own data (docs/PREFERENCES.md). */
public final class AddressSends {

    /** One recipient row of the address: its campaign, status and when it was sent. */
    public record Send(long campaignId, String campaign, String status, Optional<Instant> sentAt) {}

    /** The address's recipient rows in every campaign, oldest first, at most {@code limit}. */
    public List<Send> of(Connection c, String emailKey, int limit) throws SQLException {
        List<Send> sends = new ArrayList<>();
        // Through the campaigns, so each lookup uses the (campaign_id, email_key) key.
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT r.campaign_id, c.name, r.status, r.sent_at FROM recipient r JOIN campaign c ON c.id = r.campaign_id
                WHERE r.campaign_id IN (SELECT id FROM campaign) AND r.email_key = ? ORDER BY r.id LIMIT ?""")) {
            ps.setString(1, emailKey);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sends.add(new Send(rs.getLong(1), rs.getString(2), rs.getString(3), Optional.ofNullable(SqlTime.get(rs, 4))));
                }
            }
        }
        return sends;
    }
}
