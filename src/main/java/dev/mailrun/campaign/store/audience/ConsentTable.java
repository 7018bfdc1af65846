package dev.mailrun.campaign.store.audience;

import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.model.SubscriptionStatus;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The subscription_consent table: how and when a person consented to a list, and when they confirmed.
 * A sign-up writes (or replaces) the row of each list it asks for; a confirmation clears the pending
 * link's hash, so a link confirms once.
 */
public final class ConsentTable {

    /** A new consent: a form's (wording, perhaps the client's address) or another source's. */
    public record NewConsent(long subscriberId, long listId, SubscriptionSource source, Optional<String> wording,
                             Optional<Instant> confirmedAt, Optional<String> clientIp, Optional<byte[]> confirmHash) {}

    /**
     * A subscription's consent as exported: its list, its status, and the consent row's values, or where
     * there is none (a subscription made before sign-ups, or by import, API or operator) the
     * subscription's source and time.
     */
    public record Exported(String listName, SubscriptionStatus status, SubscriptionSource source, Instant consentedAt,
                           Optional<String> wording, Optional<Instant> confirmedAt, Optional<String> clientIp) {}

    /** Writes the consent, replacing the subscription's earlier one. */
    public void put(Connection c, NewConsent n, Instant now) throws SQLException {
        try (PreparedStatement del = c.prepareStatement("DELETE FROM subscription_consent WHERE subscriber_id = ? AND list_id = ?")) {
            del.setLong(1, n.subscriberId());
            del.setLong(2, n.listId());
            del.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO subscription_consent (subscriber_id, list_id, source, wording, consented_at, confirmed_at,
                    client_ip, confirm_hash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)""")) {
            ps.setLong(1, n.subscriberId());
            ps.setLong(2, n.listId());
            ps.setString(3, n.source().dbValue());
            ps.setString(4, n.wording().orElse(null));
            SqlTime.set(ps, 5, now);
            if (n.confirmedAt().isPresent()) {
                SqlTime.set(ps, 6, n.confirmedAt().get());
            } else {
                ps.setNull(6, Types.TIMESTAMP);
            }
            ps.setString(7, n.clientIp().orElse(null));
            ps.setBytes(8, n.confirmHash().orElse(null));
            ps.executeUpdate();
        }
    }

    /** The lists whose pending confirmation this hash is, for this subscriber, their rows locked. */
    public List<Long> lockPending(Connection c, long subscriberId, byte[] confirmHash) throws SQLException {
        List<Long> lists = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT list_id FROM subscription_consent WHERE subscriber_id = ? AND confirm_hash = ? ORDER BY list_id FOR UPDATE""")) {
            ps.setLong(1, subscriberId);
            ps.setBytes(2, confirmHash);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    lists.add(rs.getLong(1));
                }
            }
        }
        return lists;
    }

    /** Marks the subscriber's consents with this hash confirmed at {@code now}, and clears the hash. */
    public int confirm(Connection c, long subscriberId, byte[] confirmHash, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE subscription_consent SET confirmed_at = ?, confirm_hash = NULL
                WHERE subscriber_id = ? AND confirm_hash = ?""")) {
            SqlTime.set(ps, 1, now);
            ps.setLong(2, subscriberId);
            ps.setBytes(3, confirmHash);
            return ps.executeUpdate();
        }
    }

    /** Every subscription of the subscriber with its consent, by list name. */
    public List<Exported> export(Connection c, long subscriberId) throws SQLException {
        List<Exported> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT l.name, s.status, COALESCE(k.source, s.source), COALESCE(k.consented_at, s.created_at), k.wording,
                       k.confirmed_at, k.client_ip
                FROM subscription s JOIN subscriber_list l ON l.id = s.list_id
                LEFT JOIN subscription_consent k ON k.subscriber_id = s.subscriber_id AND k.list_id = s.list_id
                WHERE s.subscriber_id = ? ORDER BY l.name, l.id""")) {
            ps.setLong(1, subscriberId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Exported(rs.getString(1), SubscriptionStatus.fromDb(rs.getString(2)),
                            SubscriptionSource.fromDb(rs.getString(3)), SqlTime.get(rs, 4), Optional.ofNullable(rs.getString(5)),
                            rs.getObject(6) == null ? Optional.empty() : Optional.of(SqlTime.get(rs, 6)),
                            Optional.ofNullable(rs.getString(7))));
                }
            }
        }
        return rows;
    }
}
