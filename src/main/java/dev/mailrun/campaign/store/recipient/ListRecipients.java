package dev.mailrun.campaign.store.recipient;

import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;

/**
 * A list campaign's recipients made from its lists' subscribers (docs/AUDIENCE.md, "Campaigns to
 * lists"): one {@code INSERT … SELECT} the server runs over the subscription index, however many
 * people the lists hold — no row travels through the worker.
 */
public final class ListRecipients {

    /**
     * Who is sent: an enabled (not blocklisted) subscriber with a subscription to at least one of the
     * campaign's lists that is confirmed, or unconfirmed on a single opt-in list (a double opt-in
     * list mails only those who confirmed), and whose address is not suppressed. A semi-join (IN), not a
     * join: someone on two of the lists is one row, and the server may drive it from the lists'
     * subscription index (list, status, subscriber) rather than read every subscriber. INSERT IGNORE on uq_recipient_email_key leaves out an
     * address the campaign already has (from a CSV import, or an earlier try of this start). The
     * subscriber's name becomes the recipient's, its attributes the merge fields: both are flat JSON
     * objects, and the sender reads numbers and booleans as their text.
     */
    private static final String MATERIALISE = """
            INSERT IGNORE INTO recipient (campaign_id, email, name, fields, status, updated_at)
            SELECT ?, s.email, s.name, s.attribs, 'pending', ?
            FROM subscriber s
            WHERE s.status = 'enabled'
              AND s.id IN (SELECT m.subscriber_id FROM campaign_list cl
                           JOIN subscriber_list l ON l.id = cl.list_id
                           JOIN subscription m ON m.list_id = cl.list_id
                           WHERE cl.campaign_id = ?
                             AND (m.status = 'confirmed' OR (m.status = 'unconfirmed' AND l.optin = 'single')))
              AND NOT EXISTS (SELECT 1 FROM suppression x WHERE x.address = s.email_key)
            ORDER BY s.id""";

    private final StatusCountTable counts = new StatusCountTable();

    /**
     * Adds the subscribers of the campaign's lists as pending recipients, and their number to the
     * campaign's status counts, in the caller's transaction; returns how many were added.
     */
    public long materialise(Connection c, long campaignId, Instant now) throws SQLException {
        long inserted;
        try (PreparedStatement ps = c.prepareStatement(MATERIALISE)) {
            ps.setLong(1, campaignId);
            SqlTime.set(ps, 2, now);
            ps.setLong(3, campaignId);
            inserted = ps.executeLargeUpdate();
        }
        counts.apply(c, campaignId, new StatusCountTable.Delta().add("pending", "", inserted));
        return inserted;
    }
}
