package dev.mailrun.campaign.store.recipient;

import dev.mailrun.campaign.store.audience.SubscriberFilterSql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A campaign's recipients made from its lists' subscribers and its segments' members (docs/AUDIENCE.md,
 * "Campaigns to lists and segments"): one {@code INSERT … SELECT} the server runs, however many people
 * they hold — no row travels through the worker.
 *
 * <p>What the statement reads: the worker's connections run at READ COMMITTED, where InnoDB (MySQL and
 * MariaDB alike) does the {@code SELECT} of an {@code INSERT … SELECT} as a consistent read, without
 * locks, from a snapshot taken when the statement begins. A subscription change committed before then
 * is seen; one committed later (or still uncommitted) is not, and does not hold the statement up.
 */
public final class AudienceRecipients {

    /** A live subscription: confirmed, or unconfirmed on a single opt-in list (a double opt-in list mails only those who confirmed). */
    private static final String LIVE = "(m.status = 'confirmed' OR (m.status = 'unconfirmed' AND l.optin = 'single'))";

    /**
     * Someone with a live subscription to at least one of the campaign's lists. A semi-join (IN), not a
     * join: someone on two of the lists is one row, and the server may drive it from the lists'
     * subscription index (list, status, subscriber) rather than read every subscriber. One parameter: the campaign.
     */
    private static final String ON_LISTS = """
            s.id IN (SELECT m.subscriber_id FROM campaign_list cl
                     JOIN subscriber_list l ON l.id = cl.list_id
                     JOIN subscription m ON m.list_id = cl.list_id
                     WHERE cl.campaign_id = ? AND\s""" + LIVE + ")";

    /** Someone with a live subscription to any list: a segment never mails a person who left every list. */
    private static final String SUBSCRIBED = "EXISTS (SELECT 1 FROM subscription m JOIN subscriber_list l ON l.id = m.list_id "
            + "WHERE m.subscriber_id = s.id AND " + LIVE + ")";

    private final StatusCountTable counts = new StatusCountTable();

    /**
     * Adds as pending recipients the subscribers of the campaign's lists (when {@code lists}) and those
     * any of {@code segments} (their compiled filters) match who hold a live subscription, and their
     * number to the campaign's status counts, in the caller's transaction; returns how many were added.
     *
     * <p>Who is sent: an enabled (not blocklisted) subscriber whose address is not suppressed. INSERT
     * IGNORE on uq_recipient_email_key leaves out an address the campaign already has (from a CSV
     * import, from another of its lists or segments, or an earlier try of this start). The subscriber's
     * name becomes the recipient's, its attributes the merge fields: both are flat JSON objects, and the
     * sender reads numbers and booleans as their text.
     */
    public long materialise(Connection c, long campaignId, boolean lists, List<SubscriberFilterSql.Where> segments, Instant now)
            throws SQLException {
        if (!lists && segments.isEmpty()) {
            return 0;
        }
        List<String> who = new ArrayList<>();
        if (lists) {
            who.add(ON_LISTS);
        }
        SubscriberFilterSql.Where matched = segments.isEmpty() ? null : SubscriberFilterSql.or(segments);
        if (matched != null) {
            who.add("(" + SUBSCRIBED + " AND " + matched.sql() + ")");
        }
        String sql = "INSERT IGNORE INTO recipient (campaign_id, email, name, fields, status, updated_at)\n"
                + "SELECT ?, s.email, s.name, s.attribs, 'pending', ?\nFROM subscriber s\nWHERE s.status = 'enabled'\n"
                + "  AND (" + String.join("\n   OR ", who) + ")\n"
                + "  AND NOT EXISTS (SELECT 1 FROM suppression x WHERE x.address = s.email_key)\nORDER BY s.id";
        long inserted;
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, campaignId);
            SqlTime.set(ps, 2, now);
            int next = 3;
            if (lists) {
                ps.setLong(next++, campaignId);
            }
            if (matched != null) {
                matched.bind(ps, next);
            }
            inserted = ps.executeLargeUpdate();
        }
        counts.apply(c, campaignId, new StatusCountTable.Delta().add("pending", "", inserted));
        return inserted;
    }
}
