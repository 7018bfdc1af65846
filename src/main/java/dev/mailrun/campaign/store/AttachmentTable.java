package dev.mailrun.campaign.store;

import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** SQL for {@code campaign_attachment}: the files a campaign's messages carry. */
public final class AttachmentTable {

    /** Writes the campaign's files in order, in one batch (a campaign has a handful at most). */
    public void insert(Connection c, long campaignId, List<Attachment> attachments, Instant now) throws SQLException {
        if (attachments.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO campaign_attachment"
                + " (campaign_id, position, filename, content_type, size_bytes, sha256, content, inline, created_at)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            int position = 0;
            for (Attachment a : attachments) {
                ps.setLong(1, campaignId);
                ps.setInt(2, position++);
                ps.setString(3, a.filename());
                ps.setString(4, a.contentType());
                ps.setLong(5, a.size());
                ps.setString(6, a.sha256());
                ps.setBytes(7, a.content());
                ps.setBoolean(8, a.inline());
                SqlTime.set(ps, 9, now);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The campaign's files with their bytes, in order; read once per run. */
    public List<Attachment> load(Connection c, long campaignId) throws SQLException {
        List<Attachment> all = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT filename, content_type, content, sha256, inline"
                + " FROM campaign_attachment WHERE campaign_id = ? ORDER BY position")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    all.add(new Attachment(rs.getString(1), rs.getString(2), rs.getBytes(3), rs.getString(4), rs.getBoolean(5)));
                }
            }
        }
        return all;
    }

    /** The campaign's files without their bytes, in order. */
    public List<Attachment.Summary> list(Connection c, long campaignId) throws SQLException {
        List<Attachment.Summary> all = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT filename, content_type, size_bytes, sha256, inline"
                + " FROM campaign_attachment WHERE campaign_id = ? ORDER BY position")) {
            ps.setLong(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    all.add(new Attachment.Summary(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4), rs.getBoolean(5)));
                }
            }
        }
        return all;
    }

    /** The server's largest packet: a file over it cannot be written in one statement. */
    public long maxAllowedPacket(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT @@max_allowed_packet");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
