package dev.mailrun.campaign.store;

import dev.mailrun.db.Sql;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.db.SqlTime;
import dev.mailrun.events.EventOutbox;
import dev.mailrun.events.EventType;
import dev.mailrun.events.OutboxEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The suppression table: addresses never to be mailed again, by any campaign. Keyed by
 * {@code EmailAddress.suppressionKey()}, the whole address lower-cased.
 */
public final class SuppressionTable {

    /**
     * The domain of the placeholder an erased recipient's address becomes ({@code erased-<id>@erased.invalid}):
     * reserved (RFC 2606), never mailed, always suppressed.
     */
    public static final String ERASED_DOMAIN = "erased.invalid";

    private static final HexFormat HEX = HexFormat.of();

    private final EventOutbox events = new EventOutbox();
    /** The installation's erasure salt once seen; it never changes once made (null: not seen yet). */
    private volatile String saltHex;

    public record Entry(String address, SuppressionReason reason, String source) {}

    /**
     * A suppression as stored. The reason is the stored text, not the enum: a row written by a newer
     * version with a reason this one does not know is still listed and exported, never skipped.
     */
    public record Stored(String address, String reason, String source, Instant createdAt) {}

    /** Which suppressions a list or an export reads: optionally one reason, optionally created at or after an instant. */
    public record Filter(Optional<SuppressionReason> reason, Optional<Instant> since) {
        static Filter all() {
            return new Filter(Optional.empty(), Optional.empty());
        }
    }

    /** One imported row: its suppression key and the physical line of the file it starts on. */
    public record ImportedRow(String address, long line) {}

    /** What every row of one import shares: the import's id, the reason, the source (the file) and the time. */
    public record ImportStamp(String importId, SuppressionReason reason, String source, Instant at) {}

    /**
     * Adds entries; an address already suppressed keeps its first reason. Returns how many were new.
     * Each new one writes its {@code recipient.suppressed} event in the caller's transaction (the
     * addresses already on the list are read first, in the same statement for all of them).
     */
    public int add(Connection c, Collection<Entry> entries, Instant now) throws SQLException {
        if (entries.isEmpty()) {
            return 0;
        }
        Set<String> before = suppressedAmong(c, entries.stream().map(Entry::address).toList());
        List<OutboxEvent> news = new ArrayList<>();
        Set<String> seen = new HashSet<>(before);
        for (Entry e : entries) {
            if (seen.add(e.address())) {
                news.add(OutboxEvent.of(EventType.RECIPIENT_SUPPRESSED, null, null, e.address(),
                        OutboxEvent.fields("reason", e.reason().dbValue(), "source", Sql.truncate(e.source(), 500))));
            }
        }
        events.write(c, news, now);
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT IGNORE INTO suppression (address, reason, source, created_at) VALUES (?, ?, ?, ?)""")) {
            for (Entry e : entries) {
                ps.setString(1, e.address());
                ps.setString(2, e.reason().dbValue());
                ps.setString(3, Sql.truncate(e.source(), 500));
                SqlTime.set(ps, 4, now);
                ps.addBatch();
            }
            int added = 0;
            for (int n : ps.executeBatch()) {
                added += n > 0 ? 1 : 0;
            }
            return added;
        }
    }

    /**
     * Which of these suppression keys are suppressed: on the suppression list, erased (their hash in
     * {@code erased_address}, docs/ERASURE.md), or an erased recipient's placeholder
     * ({@link #ERASED_DOMAIN}). One statement for the whole set once the installation's salt
     * ({@code erasure_key}) is known: the hashes are made here ({@link ErasedAddressTable#hash}, the
     * same function the erasure stores) and looked up by value, rather than made by the database
     * from a derived table of every key, a statement too long for the driver's statement cache that
     * it parsed anew at every claim. Until a first erasure there is no salt and no erased address:
     * the statement then asks for the salt instead, and a salt it finds is kept (it never changes).
     */
    public Set<String> suppressedAmong(Connection c, Collection<String> keys) throws SQLException {
        Set<String> found = new HashSet<>();
        if (keys.isEmpty()) {
            return found;
        }
        List<String> list = List.copyOf(keys);
        for (String key : list) {
            if (key.endsWith("@" + ERASED_DOMAIN)) {
                found.add(key);
            }
        }
        String salt = saltHex;
        Map<String, String> byHash = salt == null ? Map.of() : hashes(list, salt);
        String erased = salt == null ? "SELECT 2, salt_hex FROM erasure_key WHERE id = 1"
                : "SELECT 1, LOWER(HEX(address_hash)) FROM erased_address WHERE address_hash IN (" + Sql.placeholders(byHash.size()) + ")";
        String saltFound = null;
        try (PreparedStatement ps = c.prepareStatement("SELECT 0, address FROM suppression WHERE address IN ("
                + Sql.placeholders(list.size()) + ") UNION ALL " + erased)) {
            int i = 1;
            for (String key : list) {
                ps.setString(i++, key);
            }
            for (String hash : byHash.keySet()) {
                ps.setBytes(i++, HEX.parseHex(hash));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    switch (rs.getInt(1)) {
                        case 0 -> found.add(rs.getString(2));
                        case 1 -> found.add(byHash.get(rs.getString(2)));
                        default -> saltFound = rs.getString(2);
                    }
                }
            }
        }
        if (saltFound != null) {
            // The first erasure this process sees: keep its salt and ask again, with the hashes.
            saltHex = saltFound;
            return suppressedAmong(c, keys);
        }
        found.remove(null);   // a hash the statement returned that no key of this call made
        return found;
    }

    /** Each key's erasure hash (lower-case hex) to the key. */
    private static Map<String, String> hashes(List<String> keys, String salt) {
        Map<String, String> byHash = new LinkedHashMap<>();
        for (String key : keys) {
            byHash.put(HEX.formatHex(ErasedAddressTable.hash(salt, key)), key);
        }
        return byHash;
    }

    public boolean isSuppressed(Connection c, String key) throws SQLException {
        return suppressedAmong(c, List.of(key)).contains(key);
    }

    // ---- import -------------------------------------------------------------------------------

    /**
     * One multi-row {@code INSERT IGNORE} of an import's rows, stamped with the import's id and each
     * row's line. An address already on the list keeps its row (and its first reason). Returns how
     * many rows went in; the caller bounds the statement's rows and bytes.
     */
    public int insertImported(Connection c, List<ImportedRow> rows, ImportStamp stamp) throws SQLException {
        if (rows.isEmpty()) {
            return 0;
        }
        StringBuilder sql = new StringBuilder(120 + rows.size() * 24).append(
                "INSERT IGNORE INTO suppression (address, reason, source, created_at, import_id, import_line) VALUES ");
        for (int i = 0; i < rows.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, ?)");
        }
        String reason = stamp.reason().dbValue();
        String source = Sql.truncate(stamp.source(), 500);
        String at = SqlTime.literal(stamp.at());
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            int p = 1;
            for (ImportedRow r : rows) {
                ps.setString(p++, r.address());
                ps.setString(p++, reason);
                ps.setString(p++, source);
                ps.setString(p++, at);
                ps.setString(p++, stamp.importId());
                ps.setLong(p++, r.line());
            }
            return ps.executeUpdate();
        }
    }

    /**
     * Writes the {@code recipient.suppressed} events of the addresses an import added, in the
     * caller's transaction (that of the import's statement), as {@link #add} does for its entries.
     */
    public void importedEvents(Connection c, List<String> added, ImportStamp stamp) throws SQLException {
        List<OutboxEvent> news = new ArrayList<>(added.size());
        String source = Sql.truncate(stamp.source(), 500);
        for (String address : added) {
            news.add(OutboxEvent.of(EventType.RECIPIENT_SUPPRESSED, null, null, address,
                    OutboxEvent.fields("reason", stamp.reason().dbValue(), "source", source)));
        }
        events.write(c, news, stamp.at());
    }

    /**
     * Which of {@code addresses} are on the list: address → its line in import {@code importId},
     * or -1 when it was suppressed otherwise (another import, a bounce, an unsubscribe …).
     */
    public Map<String, Long> importedLines(Connection c, Collection<String> addresses, String importId) throws SQLException {
        Map<String, Long> found = new HashMap<>();
        if (addresses.isEmpty()) {
            return found;
        }
        List<String> list = List.copyOf(addresses);
        try (PreparedStatement ps = c.prepareStatement("SELECT address, import_id, import_line FROM suppression WHERE address IN ("
                + Sql.placeholders(list.size()) + ")")) {
            for (int i = 0; i < list.size(); i++) {
                ps.setString(i + 1, list.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.put(rs.getString(1), importId.equals(rs.getString(2)) ? rs.getLong(3) : -1L);
                }
            }
        }
        return found;
    }

    // ---- reading and removing -------------------------------------------------------------------

    public Optional<Stored> find(Connection c, String key) throws SQLException {
        return one(c, "SELECT address, reason, source, created_at FROM suppression WHERE address = ?", key);
    }

    /** The row, locked until the transaction ends, so that a removal and its audit row see the same suppression. */
    public Optional<Stored> lock(Connection c, String key) throws SQLException {
        return one(c, "SELECT address, reason, source, created_at FROM suppression WHERE address = ? FOR UPDATE", key);
    }

    /** Deletes the row; false when there was none. */
    public boolean delete(Connection c, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM suppression WHERE address = ?")) {
            ps.setString(1, key);
            return ps.executeUpdate() > 0;
        }
    }

    /** Up to {@code limit} suppressions matching {@code filter} after {@code afterKey} in key order: one page of an export. */
    public List<Stored> page(Connection c, Filter filter, String afterKey, int limit) throws SQLException {
        return select(c, filter, " AND address > ?", afterKey, " ORDER BY address LIMIT ?", limit);
    }

    /** The {@code limit} newest suppressions matching {@code filter}, newest first. */
    public List<Stored> newest(Connection c, Filter filter, int limit) throws SQLException {
        return select(c, filter, "", null, " ORDER BY created_at DESC, address LIMIT ?", limit);
    }

    public long count(Connection c, Filter filter) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM suppression WHERE 1 = 1" + where(filter))) {
            bind(ps, filter, 1);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private List<Stored> select(Connection c, Filter filter, String after, String afterKey, String order, int limit)
            throws SQLException {
        List<Stored> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT address, reason, source, created_at FROM suppression WHERE 1 = 1" + where(filter) + after + order)) {
            int i = bind(ps, filter, 1);
            if (afterKey != null) {
                ps.setString(i++, afterKey);
            }
            ps.setInt(i, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(stored(rs));
                }
            }
        }
        return rows;
    }

    private static String where(Filter filter) {
        return (filter.reason().isPresent() ? " AND reason = ?" : "") + (filter.since().isPresent() ? " AND created_at >= ?" : "");
    }

    /** Binds the filter's values from {@code index}; returns the next free index. */
    private static int bind(PreparedStatement ps, Filter filter, int index) throws SQLException {
        int i = index;
        if (filter.reason().isPresent()) {
            ps.setString(i++, filter.reason().get().dbValue());
        }
        if (filter.since().isPresent()) {
            SqlTime.set(ps, i++, filter.since().get());
        }
        return i;
    }

    private static Optional<Stored> one(Connection c, String sql, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(stored(rs)) : Optional.empty();
            }
        }
    }

    private static Stored stored(ResultSet rs) throws SQLException {
        return new Stored(rs.getString(1), rs.getString(2), rs.getString(3), SqlTime.get(rs, 4));
    }
}
