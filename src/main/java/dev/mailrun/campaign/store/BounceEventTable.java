package dev.mailrun.campaign.store;

import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Locale;

/** The bounce_event table: which bounce kinds were already applied to which send. */
public final class BounceEventTable {

    public enum Kind {
        HARD, SOFT, COMPLAINT, REFUSED;

        String dbValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Records the event; false when this send already had a bounce of this kind (nothing to do). */
    public boolean recordIfNew(Connection c, MatchedRecipient r, Kind kind, String status, String diagnostic, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT IGNORE INTO bounce_event (recipient_id, kind, campaign_id, address, status, diagnostic, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)""")) {
            ps.setLong(1, r.id());
            ps.setString(2, kind.dbValue());
            ps.setLong(3, r.campaignId());
            ps.setString(4, r.email());
            ps.setString(5, Sql.truncate(status, 16));
            ps.setString(6, Sql.truncate(diagnostic, 1000));
            SqlTime.set(ps, 7, now);
            return ps.executeUpdate() > 0;
        }
    }

    /** An erasure (docs/ERASURE.md): the address and diagnostic of these sends' bounces replaced; the rows, and so the rates, stay. */
    public void erase(Connection c, java.util.List<Long> recipientIds) throws SQLException {
        if (recipientIds.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE bounce_event SET address = CONCAT('erased-', recipient_id, '@"
                + SuppressionTable.ERASED_DOMAIN + "'), diagnostic = NULL WHERE recipient_id IN ("
                + Sql.placeholders(recipientIds.size()) + ")")) {
            for (int i = 0; i < recipientIds.size(); i++) {
                ps.setLong(i + 1, recipientIds.get(i));
            }
            ps.executeUpdate();
        }
    }
}
