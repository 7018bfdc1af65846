package dev.mailrun.campaign.store.audience;

import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.model.SubscriptionStatus;
import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The subscription table: a subscriber on a list. Statements about many subscribers take them all in
 * one statement (an import's batch); the caller bounds how many.
 */
public final class SubscriptionTable {

    /** One subscription of a subscriber, with its list's name. */
    public record Stored(long listId, String listName, SubscriptionStatus status, SubscriptionSource source, Instant createdAt,
                         Instant updatedAt) {}

    /** A subscription that is not unsubscribed: which subscriber, on which list. */
    public record Held(long subscriberId, long listId) {}

    /** The subscriber's subscriptions, by list name. */
    public List<Stored> ofSubscriber(Connection c, long subscriberId) throws SQLException {
        List<Stored> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT l.id, l.name, s.status, s.source, s.created_at, s.updated_at
                FROM subscription s JOIN subscriber_list l ON l.id = s.list_id
                WHERE s.subscriber_id = ? ORDER BY l.name, l.id""")) {
            ps.setLong(1, subscriberId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Stored(rs.getLong(1), rs.getString(2), SubscriptionStatus.fromDb(rs.getString(3)),
                            SubscriptionSource.fromDb(rs.getString(4)), SqlTime.get(rs, 5), SqlTime.get(rs, 6)));
                }
            }
        }
        return rows;
    }

    /**
     * The status of each of these subscribers' subscription to the list, for those who have one,
     * their rows locked for this transaction (by the primary key: subscriber, list).
     */
    public Map<Long, SubscriptionStatus> lockOnList(Connection c, long listId, Collection<Long> subscriberIds) throws SQLException {
        Map<Long, SubscriptionStatus> found = new HashMap<>();
        if (subscriberIds.isEmpty()) {
            return found;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT subscriber_id, status FROM subscription WHERE subscriber_id IN ("
                + Sql.placeholders(subscriberIds.size()) + ") AND list_id = ? FOR UPDATE")) {
            int i = bindIds(ps, 1, subscriberIds);
            ps.setLong(i, listId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.put(rs.getLong(1), SubscriptionStatus.fromDb(rs.getString(2)));
                }
            }
        }
        return found;
    }

    /** Subscribes these subscribers to the list in one statement; one already on it keeps its subscription as it is. */
    public void subscribe(Connection c, long listId, Collection<Long> subscriberIds, SubscriptionStatus status, SubscriptionSource source,
                          Instant now) throws SQLException {
        if (subscriberIds.isEmpty()) {
            return;
        }
        String row = ", (?, ?, ?, ?, ?, ?)";
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO subscription (subscriber_id, list_id, status, source, "
                + "created_at, updated_at) VALUES " + row.substring(2) + row.repeat(subscriberIds.size() - 1))) {
            String at = SqlTime.literal(now);
            int i = 1;
            for (long id : subscriberIds) {
                ps.setLong(i++, id);
                ps.setLong(i++, listId);
                ps.setString(i++, status.dbValue());
                ps.setString(i++, source.dbValue());
                ps.setString(i++, at);
                ps.setString(i++, at);
            }
            ps.executeUpdate();
        }
    }

    /** Sets these subscribers' subscriptions to the list to {@code status}, in one statement. */
    public void setStatus(Connection c, long listId, Collection<Long> subscriberIds, SubscriptionStatus status, Instant now)
            throws SQLException {
        if (subscriberIds.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE subscription SET status = ?, updated_at = ? WHERE subscriber_id IN ("
                + Sql.placeholders(subscriberIds.size()) + ") AND list_id = ?")) {
            ps.setString(1, status.dbValue());
            SqlTime.set(ps, 2, now);
            int i = bindIds(ps, 3, subscriberIds);
            ps.setLong(i, listId);
            ps.executeUpdate();
        }
    }

    /** These subscribers' subscriptions that are not unsubscribed, on every list, their rows locked for this transaction. */
    public List<Held> lockHeld(Connection c, Collection<Long> subscriberIds) throws SQLException {
        List<Held> held = new ArrayList<>();
        if (subscriberIds.isEmpty()) {
            return held;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT subscriber_id, list_id FROM subscription WHERE subscriber_id IN ("
                + Sql.placeholders(subscriberIds.size()) + ") AND status <> 'unsubscribed' ORDER BY subscriber_id, list_id FOR UPDATE")) {
            bindIds(ps, 1, subscriberIds);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    held.add(new Held(rs.getLong(1), rs.getLong(2)));
                }
            }
        }
        return held;
    }

    /**
     * Unsubscribes the subscriber from those of {@code listIds} it is subscribed to (not unsubscribed
     * already), their rows locked first; returns the lists it left, in id order: none when it was on none.
     */
    public List<Long> unsubscribe(Connection c, long subscriberId, Collection<Long> listIds, Instant now) throws SQLException {
        List<Long> left = new ArrayList<>();
        if (listIds.isEmpty()) {
            return left;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT list_id FROM subscription WHERE subscriber_id = ? AND list_id IN ("
                + Sql.placeholders(listIds.size()) + ") AND status <> 'unsubscribed' ORDER BY list_id FOR UPDATE")) {
            ps.setLong(1, subscriberId);
            bindIds(ps, 2, listIds);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    left.add(rs.getLong(1));
                }
            }
        }
        if (left.isEmpty()) {
            return left;
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE subscription SET status = 'unsubscribed', updated_at = ? "
                + "WHERE subscriber_id = ? AND list_id IN (" + Sql.placeholders(left.size()) + ")")) {
            SqlTime.set(ps, 1, now);
            ps.setLong(2, subscriberId);
            bindIds(ps, 3, left);
            ps.executeUpdate();
        }
        return left;
    }

    /** Unsubscribes these subscribers from every list they are on, in one statement. */
    public void unsubscribeEverywhere(Connection c, Collection<Long> subscriberIds, Instant now) throws SQLException {
        if (subscriberIds.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE subscription SET status = 'unsubscribed', updated_at = ? "
                + "WHERE subscriber_id IN (" + Sql.placeholders(subscriberIds.size()) + ") AND status <> 'unsubscribed'")) {
            SqlTime.set(ps, 1, now);
            bindIds(ps, 2, subscriberIds);
            ps.executeUpdate();
        }
    }

    /** How many subscriptions each list has in each status (every status, 0 for none), by list id. */
    public Map<Long, Map<SubscriptionStatus, Long>> counts(Connection c) throws SQLException {
        Map<Long, Map<SubscriptionStatus, Long>> counts = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT list_id, status, COUNT(*) FROM subscription GROUP BY list_id, status");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                counts.computeIfAbsent(rs.getLong(1), id -> zeros()).put(SubscriptionStatus.fromDb(rs.getString(2)), rs.getLong(3));
            }
        }
        return counts;
    }

    /** How many subscriptions the list has, whatever their status. */
    public long count(Connection c, long listId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM subscription WHERE list_id = ?")) {
            ps.setLong(1, listId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** A subscription as it stands: its status, its source and its list's name. */
    public record State(long subscriberId, long listId, String listName, SubscriptionStatus status, SubscriptionSource source) {}

    /**
     * The subscriptions of these (subscriber, list) pairs as they stand in this transaction, with their
     * lists' names: one statement for up to 500 pairs (what the events of an import's batch read).
     */
    public List<State> states(Connection c, Collection<Held> pairs) throws SQLException {
        List<State> states = new ArrayList<>();
        List<Held> all = new ArrayList<>(pairs);
        for (int from = 0; from < all.size(); from += 500) {
            List<Held> part = all.subList(from, Math.min(all.size(), from + 500));
            String pair = ", (?, ?)";
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT s.subscriber_id, s.list_id, l.name, s.status, s.source
                    FROM subscription s JOIN subscriber_list l ON l.id = s.list_id
                    WHERE (s.subscriber_id, s.list_id) IN (""" + pair.substring(2) + pair.repeat(part.size() - 1) + ")")) {
                int i = 1;
                for (Held h : part) {
                    ps.setLong(i++, h.subscriberId());
                    ps.setLong(i++, h.listId());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        states.add(new State(rs.getLong(1), rs.getLong(2), rs.getString(3), SubscriptionStatus.fromDb(rs.getString(4)),
                                SubscriptionSource.fromDb(rs.getString(5))));
                    }
                }
            }
        }
        return states;
    }

    /** Every status at 0. */
    public static Map<SubscriptionStatus, Long> zeros() {
        Map<SubscriptionStatus, Long> m = new EnumMap<>(SubscriptionStatus.class);
        for (SubscriptionStatus s : SubscriptionStatus.values()) {
            m.put(s, 0L);
        }
        return m;
    }

    private static int bindIds(PreparedStatement ps, int from, Collection<Long> ids) throws SQLException {
        int i = from;
        for (long id : ids) {
            ps.setLong(i++, id);
        }
        return i;
    }
}
