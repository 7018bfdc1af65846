package dev.mailrun.testing;

import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberForm;
import dev.mailrun.campaign.audience.Subscribers;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.store.audience.CampaignListTable;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * One person's data in every table that can hold an address, a name or an attribute (docs/ERASURE.md):
 * a subscriber on three lists (news and offers public, staff private) with a name and an attribute,
 * a recipient of a list campaign (sent, with an open and a click and a soft bounce) beside another
 * person, a suppression and a removal, a soft-bounce count, an event in the outbox, an API audit row
 * and a stored idempotent answer. {@link #holding} scans every text column of the schema for a value.
 */
public final class PersonEverywhere {

    public static final String EMAIL = "Zelda.Erase@Example.org";
    public static final String KEY = "zelda.erase@example.org";
    public static final String NAME = "Zelda Quux";
    public static final String ATTRIBUTE = "plan-zq7";

    /** The campaign the person was sent, to lists news and staff. */
    public final long campaign;

    private PersonEverywhere(long campaign) {
        this.campaign = campaign;
    }

    /** Empties the audience and suppression tables, then puts the person everywhere. */
    public static PersonEverywhere make(DataSource ds, Clock clock) throws SQLException {
        sql(ds, "UPDATE task SET enabled = 0", "DELETE FROM campaign_list", "DELETE FROM subscriber", "DELETE FROM subscriber_list",
                "DELETE FROM suppression", "DELETE FROM erased_address", "DELETE FROM soft_bounce",
                "DELETE FROM api_idempotency WHERE idem_key = 'k-zelda'", "DELETE FROM recipient WHERE email_key = '" + KEY + "'");
        Lists lists = new Lists(ds, clock);
        long news = lists.create(new Lists.NewList("news", Optional.of("Weekly news"), ListVisibility.PUBLIC, ListOptIn.SINGLE)).id();
        lists.create(new Lists.NewList("offers", Optional.empty(), ListVisibility.PUBLIC, ListOptIn.DOUBLE));
        long staff = lists.create(new Lists.NewList("staff", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE)).id();
        new Subscribers(ds, clock, AddressFilter.none()).upsert(new SubscriberForm(EMAIL, Optional.of(NAME),
                Optional.of(Map.of("plan", ATTRIBUTE)), List.of("news", "staff")), SubscriptionSource.OPERATOR);
        long campaign = CampaignFixtures.campaign(ds, "To news and staff");
        Transactions.inTransaction(ds, c -> {
            new CampaignListTable().set(c, campaign, List.of(news, staff));
            return null;
        });
        sql(ds, "INSERT INTO recipient (campaign_id, email, name, fields, status, attempts, sent_at, message_id, last_error, updated_at)"
                        + " VALUES (" + campaign + ", '" + EMAIL + "', '" + NAME + "', '{\"plan\":\"" + ATTRIBUTE + "\"}', 'sent', 1,"
                        + " UTC_TIMESTAMP(3), '<m1@sender.example>', '451 " + KEY + " greylisted', UTC_TIMESTAMP(3))",
                "INSERT INTO recipient (campaign_id, email, name, status, attempts, sent_at, updated_at) VALUES (" + campaign
                        + ", 'other@example.org', 'Other', 'sent', 1, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))");
        long recipient = one(ds, "SELECT id FROM recipient WHERE campaign_id = " + campaign + " AND email_key = '" + KEY + "'");
        Transactions.inTransaction(ds, c -> {
            StatusCounts.rebuild(c, campaign);
            return null;
        });
        sql(ds, "INSERT INTO campaign_tracking (campaign_id, opens, clicks, created_at) VALUES (" + campaign + ", 1, 1, UTC_TIMESTAMP(3))",
                "INSERT INTO tracking_event (campaign_id, recipient_id, kind, link_index, class, at) VALUES (" + campaign + ", " + recipient
                        + ", 'open', NULL, 'human', UTC_TIMESTAMP(3)), (" + campaign + ", " + recipient + ", 'click', 0, 'human', UTC_TIMESTAMP(3))",
                "INSERT INTO bounce_event (recipient_id, kind, campaign_id, address, status, diagnostic, created_at) VALUES (" + recipient
                        + ", 'soft', " + campaign + ", '" + EMAIL + "', '4.2.2', 'mailbox of " + KEY + " full', UTC_TIMESTAMP(3))",
                "INSERT INTO soft_bounce (address, bounces, first_at, last_at) VALUES ('" + KEY + "', 1, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))",
                "INSERT INTO suppression_removal (address, reason, source, suppressed_at, why, removed_by, removed_at) VALUES ('" + KEY
                        + "', 'manual', 'test', UTC_TIMESTAMP(3), 'asked again', 'ops', UTC_TIMESTAMP(3))",
                "INSERT INTO event_outbox (event_id, type, campaign_id, recipient_id, email, occurred_at, data) VALUES (UUID(),"
                        + " 'recipient.sent', " + campaign + ", " + recipient + ", '" + EMAIL + "', UTC_TIMESTAMP(3), '{\"relay\":\"r\"}')",
                "INSERT INTO api_audit (at, token_name, action, target, status, detail) VALUES (UTC_TIMESTAMP(3), 'ci', 'suppression.add',"
                        + " '/suppressions/" + KEY + "', 201, 'added " + EMAIL + "')",
                "INSERT INTO api_idempotency (token_name, idem_key, request_sha256, created_at, status, content_type, headers, body)"
                        + " VALUES ('ci', 'k-zelda', UNHEX(SHA2('x', 256)), UTC_TIMESTAMP(3), 201, 'application/json', '',"
                        + " '{\"address\":\"" + KEY + "\"}')");
        return new PersonEverywhere(campaign);
    }

    /** Every (table.column) of the schema whose text, JSON or blob holds {@code value}, letter case ignored. */
    public static List<String> holding(DataSource ds, String value) throws SQLException {
        List<String> found = new ArrayList<>();
        try (Connection c = ds.getConnection()) {
            List<String[]> columns = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("""
                    SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = DATABASE()
                    AND data_type IN ('char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'json',
                                      'tinyblob', 'blob', 'mediumblob', 'longblob')
                    ORDER BY table_name, column_name""")) {
                while (rs.next()) {
                    columns.add(new String[] {rs.getString(1), rs.getString(2)});
                }
            }
            for (String[] tc : columns) {
                try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM `" + tc[0] + "` WHERE LOWER(CONVERT(CAST(`" + tc[1]
                        + "` AS CHAR) USING utf8mb4)) LIKE ?")) {
                    ps.setString(1, "%" + value.toLowerCase() + "%");
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        if (rs.getLong(1) > 0) {
                            found.add(tc[0] + "." + tc[1]);
                        }
                    }
                }
            }
        }
        return found;
    }

    public static long one(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    public static List<String> rows(DataSource ds, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }

    private static void sql(DataSource ds, String... statements) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        }
    }
}
