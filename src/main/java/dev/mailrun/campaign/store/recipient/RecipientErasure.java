package dev.mailrun.campaign.store.recipient;

import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * An erasure's statements on the recipient table (docs/ERASURE.md): every recipient row of the address,
 * in every campaign, keeps its id, campaign, status and times, so the campaigns' counts stay as they
 * were; its address becomes {@code erased-<id>@erased.invalid} and its name, merge fields, last error and
 * own file go. A row still queued is then suppressed by the claim (the placeholder's domain is).
 */
public final class RecipientErasure {

    /** The ids of the address's recipient rows in every campaign, their rows locked for this transaction. */
    public List<Long> lock(Connection c, String emailKey) throws SQLException {
        List<Long> ids = new ArrayList<>();
        // Through the campaigns, so each lookup uses the (campaign_id, email_key) key.
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id FROM recipient WHERE campaign_id IN (SELECT id FROM campaign) AND email_key = ? ORDER BY id FOR UPDATE""")) {
            ps.setString(1, emailKey);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        return ids;
    }

    /** Replaces the rows' personal values by the placeholder, in one statement. */
    public void anonymise(Connection c, List<Long> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE recipient SET email = CONCAT('erased-', id, '@"
                + SuppressionTable.ERASED_DOMAIN + "'), name = NULL, fields = NULL, last_error = NULL, attachment = NULL, "
                + "attachment_sha256 = NULL, tracking_erased = 1 WHERE id IN (" + Sql.placeholders(ids.size()) + ")")) {
            for (int i = 0; i < ids.size(); i++) {
                ps.setLong(i + 1, ids.get(i));
            }
            ps.executeUpdate();
        }
    }
}
