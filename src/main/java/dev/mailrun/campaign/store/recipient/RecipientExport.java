package dev.mailrun.campaign.store.recipient;

import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A campaign's recipients read in id order, page by page, as {@code campaign export} writes them. */
public final class RecipientExport {

    /**
     * One recipient as {@code campaign export} writes it: its outcome, and its latest bounce event
     * (kind and time) when it has one.
     */
    public record ExportedRecipient(long id, String email, RecipientStatus status, int attempts, Integer lastCode,
                                    String lastError, Instant sentAt, String messageId, String bounceKind,
                                    Instant bouncedAt, String attachment, String attachmentSha256, Integer variant) {}

    /** The campaign's smallest recipient id, where an export in id order starts; empty when it has none. */
    public Optional<Long> firstId(Connection c, long campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT MIN(id) FROM recipient WHERE campaign_id = ?")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long id = rs.getLong(1);
                return rs.wasNull() ? Optional.empty() : Optional.of(id);
            }
        }
    }

    /**
     * Up to {@code limit} recipients of the campaign with an id of at least {@code fromId}, in id order.
     * The primary key is walked from {@code fromId} (no index leads with campaign and id): start at
     * {@link #firstId} and the whole export reads the campaign's id range once. A recipient with
     * several bounce events (a soft one, then a hard one) shows the latest.
     */
    public List<ExportedRecipient> exportPage(Connection c, long campaignId, long fromId, int limit) throws SQLException {
        List<ExportedRecipient> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT r.id, r.email, r.status, r.attempts, r.last_code, r.last_error, r.sent_at, r.message_id,
                       (SELECT e.kind FROM bounce_event e WHERE e.recipient_id = r.id
                        ORDER BY e.created_at DESC, e.kind LIMIT 1) AS bounce_kind,
                       (SELECT MAX(e.created_at) FROM bounce_event e WHERE e.recipient_id = r.id) AS bounced_at,
                       r.attachment, r.attachment_sha256, r.variant
                FROM recipient r FORCE INDEX (PRIMARY)
                WHERE r.campaign_id = ? AND r.id >= ? ORDER BY r.id LIMIT ?""")) {
            ps.setLong(1, campaignId);
            ps.setLong(2, fromId);
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int code = rs.getInt(5);
                    Integer lastCode = rs.wasNull() ? null : code;
                    int v = rs.getInt(13);
                    Integer variant = rs.wasNull() ? null : v;
                    rows.add(new ExportedRecipient(rs.getLong(1), rs.getString(2), RecipientStatus.fromDb(rs.getString(3)),
                            rs.getInt(4), lastCode, rs.getString(6), SqlTime.get(rs, 7), rs.getString(8), rs.getString(9),
                            SqlTime.get(rs, 10), rs.getString(11), rs.getString(12), variant));
                }
            }
        }
        return rows;
    }

    /** The campaign's recipient with this address (case ignored: the unique key's lower-cased column). */
    public Optional<ExportedRecipient> byEmail(Connection c, long campaignId, String email) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT MIN(id) FROM recipient WHERE campaign_id = ? AND email_key = LOWER(?)")) {
            ps.setLong(1, campaignId);
            ps.setString(2, email);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long id = rs.getLong(1);
                if (rs.wasNull()) {
                    return Optional.empty();
                }
                return exportPage(c, campaignId, id, 1).stream().findFirst();
            }
        }
    }
}
