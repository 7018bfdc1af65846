package dev.mailrun.campaign.store.audience;

import dev.mailrun.campaign.model.SubscriberStatus;
import dev.mailrun.campaign.model.SubscriptionStatus;
import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The subscriber table, one subscriber at a time, and its search. An address is found by its key,
 * {@code EmailAddress.suppressionKey()}: the whole address lower-cased, as {@code email_key} holds it.
 * An import's batched statements are {@link SubscriberImports}'. Writing the attributes writes their
 * rows ({@link SubscriberAttributeTable}, derived from the JSON written) in the same transaction.
 */
public final class SubscriberTable {

    static final String COLUMNS = "id, email, name, attribs, status, created_at, updated_at";

    private final SubscriberAttributeTable attributes = new SubscriberAttributeTable();

    /** A subscriber as stored; {@code attribs} the JSON object as the database gives it back. */
    public record Stored(long id, String email, Optional<String> name, Optional<String> attribs, SubscriberStatus status,
                         Instant createdAt, Instant updatedAt) {}

    /**
     * What a search matches, every part optional, and the page: subscribers after {@code afterId} in
     * id order (a keyset page, which inserts and deletes do not shift).
     *
     * @param emailPrefix  the start of the address lower-cased
     * @param subscription the status of the subscription to {@code listId}; only with a list
     * @param attribute    a condition on the attributes ({@link SubscriberFilterSql#attrEquals})
     */
    public record Query(Optional<String> emailPrefix, Optional<Long> listId, Optional<SubscriberStatus> status,
                        Optional<SubscriptionStatus> subscription, long afterId, int limit,
                        Optional<SubscriberFilterSql.Where> attribute) {

        public Query {
            if (subscription.isPresent() && listId.isEmpty()) {
                throw new IllegalArgumentException("a subscription status is searched on a list");
            }
        }

        public Query(Optional<String> emailPrefix, Optional<Long> listId, Optional<SubscriberStatus> status,
                     Optional<SubscriptionStatus> subscription, long afterId, int limit) {
            this(emailPrefix, listId, status, subscription, afterId, limit, Optional.empty());
        }
    }

    public Optional<Stored> find(Connection c, String key) throws SQLException {
        return one(c, "SELECT " + COLUMNS + " FROM subscriber WHERE email_key = ?", key);
    }

    public Optional<Stored> findById(Connection c, long id) throws SQLException {
        return one(c, "SELECT " + COLUMNS + " FROM subscriber WHERE id = ?", id);
    }

    /** The subscriber with this id, its row locked for this transaction. */
    public Optional<Stored> lockById(Connection c, long id) throws SQLException {
        return one(c, "SELECT " + COLUMNS + " FROM subscriber WHERE id = ? FOR UPDATE", id);
    }

    /** The addresses of these subscribers, by id, in one statement for up to 1,000 of them (what their events name). */
    public Map<Long, String> emails(Connection c, Collection<Long> ids) throws SQLException {
        Map<Long, String> emails = new HashMap<>();
        List<Long> all = new ArrayList<>(ids);
        for (int from = 0; from < all.size(); from += 1000) {
            List<Long> part = all.subList(from, Math.min(all.size(), from + 1000));
            try (PreparedStatement ps = c.prepareStatement("SELECT id, email FROM subscriber WHERE id IN (" + Sql.placeholders(part.size())
                    + ")")) {
                for (int i = 0; i < part.size(); i++) {
                    ps.setLong(i + 1, part.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        emails.put(rs.getLong(1), rs.getString(2));
                    }
                }
            }
        }
        return emails;
    }

    /** Deletes the subscriber with this id, its subscriptions and history with it; false when there was none. */
    public boolean deleteById(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM subscriber WHERE id = ?")) {
            ps.setLong(1, id);
            return ps.executeUpdate() == 1;
        }
    }

    /** The subscriber with this key, its row locked for this transaction (or the gap where it would be). */
    public Optional<Stored> lock(Connection c, String key) throws SQLException {
        return one(c, "SELECT " + COLUMNS + " FROM subscriber WHERE email_key = ? FOR UPDATE", key);
    }

    /** Inserts a subscriber; returns its id. An address already there in any case fails with the unique key's error. */
    public long insert(Connection c, String email, String name, String attribs, SubscriberStatus status, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO subscriber (email, name, attribs, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)""",
                Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, email);
            ps.setString(2, name);
            ps.setString(3, attribs);
            ps.setString(4, status.dbValue());
            SqlTime.set(ps, 5, now);
            SqlTime.set(ps, 6, now);
            ps.executeUpdate();
            long id;
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                id = keys.getLong(1);
            }
            if (attribs != null) {
                attributes.insert(c, Map.of(id, attribs));
            }
            return id;
        }
    }

    /** Replaces the name and attributes (null: none), the attributes' rows with them. */
    public void update(Connection c, long id, String name, String attribs, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE subscriber SET name = ?, attribs = ?, updated_at = ? WHERE id = ?")) {
            ps.setString(1, name);
            ps.setString(2, attribs);
            SqlTime.set(ps, 3, now);
            ps.setLong(4, id);
            ps.executeUpdate();
        }
        // A singleton map holds a null (no attributes): the old rows go, none come.
        attributes.replace(c, Collections.singletonMap(id, attribs));
    }

    public void setStatus(Connection c, long id, SubscriberStatus status, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE subscriber SET status = ?, updated_at = ? WHERE id = ?")) {
            ps.setString(1, status.dbValue());
            SqlTime.set(ps, 2, now);
            ps.setLong(3, id);
            ps.executeUpdate();
        }
    }

    /**
     * Blocklists the subscriber with this key (the address lower-cased), if there is one and it is not
     * blocklisted already; returns its id when it changed.
     */
    public Optional<Long> blocklist(Connection c, String key, Instant now) throws SQLException {
        Optional<Stored> found = lock(c, key).filter(s -> s.status() != SubscriberStatus.BLOCKLISTED);
        if (found.isPresent()) {
            setStatus(c, found.get().id(), SubscriberStatus.BLOCKLISTED, now);
        }
        return found.map(Stored::id);
    }

    /** Deletes the subscriber with this key, its subscriptions and history with it (ON DELETE CASCADE); false when there was none. */
    public boolean delete(Connection c, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM subscriber WHERE email_key = ?")) {
            ps.setString(1, key);
            return ps.executeUpdate() == 1;
        }
    }

    /**
     * Up to {@code query.limit()} subscribers matching the query, in id order. On a list the
     * subscription index (list, status, subscriber) drives the search; otherwise the primary key, or
     * the status index (status, id).
     */
    public List<Stored> search(Connection c, Query query) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT s.id, s.email, s.name, s.attribs, s.status, s.created_at, s.updated_at FROM subscriber s");
        List<Object> args = new ArrayList<>();
        if (query.listId().isPresent()) {
            sql.append(" JOIN subscription m ON m.subscriber_id = s.id AND m.list_id = ?");
            args.add(query.listId().get());
            if (query.subscription().isPresent()) {
                sql.append(" AND m.status = ?");
                args.add(query.subscription().get().dbValue());
            }
        }
        sql.append(" WHERE s.id > ?");
        args.add(query.afterId());
        if (query.emailPrefix().isPresent()) {
            // '!' escapes LIKE's wildcards, and itself: a backslash would depend on the server's sql_mode.
            sql.append(" AND s.email_key LIKE ? ESCAPE '!'");
            args.add(query.emailPrefix().get().replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%");
        }
        if (query.status().isPresent()) {
            sql.append(" AND s.status = ?");
            args.add(query.status().get().dbValue());
        }
        if (query.attribute().isPresent()) {
            sql.append(" AND ").append(query.attribute().get().sql());
            args.addAll(query.attribute().get().params());
        }
        sql.append(" ORDER BY s.id LIMIT ?");
        args.add(query.limit());
        List<Stored> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(row(rs));
                }
            }
        }
        return rows;
    }

    private static Optional<Stored> one(Connection c, String sql, Object key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    static Stored row(ResultSet rs) throws SQLException {
        return new Stored(rs.getLong(1), rs.getString(2), Optional.ofNullable(rs.getString(3)), Optional.ofNullable(rs.getString(4)),
                SubscriberStatus.fromDb(rs.getString(5)), SqlTime.get(rs, 6), SqlTime.get(rs, 7));
    }
}
