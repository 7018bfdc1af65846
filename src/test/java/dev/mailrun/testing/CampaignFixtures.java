package dev.mailrun.testing;

import dev.mailrun.campaign.content.Contents;
import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.ContentPinTable;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.campaign.store.recipient.RecipientCounts;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.template.TemplateLoader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;

/** Test data straight into the real tables. */
public final class CampaignFixtures {

    private CampaignFixtures() {}

    /**
     * A draft campaign of the template {@code welcome} (templates/welcome), pinned to its stored version as
     * creation pins it (the template is stored first when its text is not).
     */
    public static long campaign(DataSource ds, String name) throws SQLException {
        Instant created = Instant.parse("2026-11-21T10:00:00Z");
        Clock clock = Clock.systemUTC();
        ContentPin pin = new Contents(ds, new TemplateStore(ds, clock, TemplateStore.DEFAULT_MAX_BYTES),
                new TemplateLoader(Path.of("templates")), new PinnedTemplates(ds, clock)).pin("welcome", "test fixture");
        return Transactions.inTransaction(ds, c -> {
            long id = new CampaignTable().insert(c, new NewCampaign(name, "welcome", "news@sender.example", Optional.of("Sender"),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), created);
            new ContentPinTable().pinCampaign(c, id, Optional.empty(), pin, "test fixture", created);
            return id;
        });
    }

    /** How many recipients the campaign has, in any state. */
    public static long recipientCount(DataSource ds, long campaignId) throws SQLException {
        return count(ds, "SELECT COUNT(*) FROM recipient WHERE campaign_id = ?", campaignId);
    }

    /** How many of the campaign's recipients are in {@code status}. */
    public static long recipientCount(DataSource ds, long campaignId, String status) throws SQLException {
        return count(ds, "SELECT COUNT(*) FROM recipient WHERE campaign_id = ? AND status = ?", campaignId, status);
    }

    /**
     * How many of the campaign's recipients a run has marked for sending and not recorded: those of
     * its in-flight row still waiting, what a crash leaves unknown (no row stores 'sending').
     */
    public static long sendingCount(DataSource ds, long campaignId) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return new RecipientCounts().counts(c, campaignId, new InFlightTable().ids(c, campaignId))
                    .get(RecipientStatus.SENDING);
        }
    }

    private static long count(DataSource ds, String sql, Object... params) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** n pending recipients r0@list.example … in one batched insert. */
    public static void recipients(DataSource ds, long campaignId, int n) throws SQLException {
        Transactions.inTransaction(ds, c -> {
            insert(c, campaignId, n);
            StatusCounts.rebuild(c, campaignId);
            return null;
        });
    }

    private static void insert(Connection c, long campaignId, int n) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO recipient (campaign_id, email, name, status, updated_at)
                VALUES (?, ?, ?, 'pending', UTC_TIMESTAMP(3))""")) {
            for (int i = 0; i < n; i++) {
                ps.setLong(1, campaignId);
                ps.setString(2, "r" + i + "@list.example");
                ps.setString(3, "Reader " + i);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * Sent recipients of an A/B campaign per variant position, 0 and 1.
     *
     * @throws AssertionError when a sent recipient has no stored variant (read as position 0, it would hide that)
     */
    public static long[] sentPerVariant(DataSource ds, long campaignId) throws SQLException {
        long[] out = new long[2];
        try (java.sql.Connection c = ds.getConnection(); java.sql.PreparedStatement ps = c.prepareStatement(
                "SELECT variant, COUNT(*) FROM recipient WHERE campaign_id = ? AND status = 'sent' GROUP BY variant")) {
            ps.setLong(1, campaignId);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int variant = rs.getInt(1);
                    if (rs.wasNull()) {
                        throw new AssertionError(rs.getLong(2) + " sent recipients of campaign " + campaignId + " have no variant");
                    }
                    out[variant] = rs.getLong(2);
                }
            }
        }
        return out;
    }
}
