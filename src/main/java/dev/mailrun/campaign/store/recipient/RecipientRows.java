package dev.mailrun.campaign.store.recipient;

import dev.mailrun.campaign.store.ClaimedRecipient;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * One recipient read as a claim reads it, by id: what its message was built from, for the web
 * version of that message (docs/CONTENT.md, "Web version").
 */
public final class RecipientRows {

    /** The recipient {@code recipientId} of campaign {@code campaignId}; empty when there is none (another campaign's, or gone). */
    public Optional<ClaimedRecipient> find(Connection c, long campaignId, long recipientId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + RecipientClaims.COLUMNS
                + " FROM recipient WHERE id = ? AND campaign_id = ?")) {
            ps.setLong(1, recipientId);
            ps.setLong(2, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(RecipientClaims.row(rs)) : Optional.empty();
            }
        }
    }
}
