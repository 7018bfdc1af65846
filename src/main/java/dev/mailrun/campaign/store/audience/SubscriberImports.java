package dev.mailrun.campaign.store.audience;

import dev.mailrun.campaign.model.SubscriberStatus;
import dev.mailrun.db.Sql;
import dev.mailrun.db.SqlTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The subscriber table's statements for one batch of an import: each takes the whole batch in one
 * statement (the caller bounds its rows and bytes). Every row an import writes or reads carries the
 * import's id and the row's line ({@code import_id}, {@code import_line}), so a later batch tells a
 * repeat of an earlier line from a subscriber that was there before.
 */
public final class SubscriberImports {

    private final SubscriberAttributeTable attributes = new SubscriberAttributeTable();

    /** A subscriber found by its key: its id, status, and the import and line that last read it. */
    public record Found(long id, SubscriberStatus status, Optional<String> importId, long importLine) {

        /** Whether import {@code importId} read this address already, on another line than {@code line}. */
        public boolean readBy(String importId, long line) {
            return this.importId.filter(importId::equals).isPresent() && importLine != line;
        }
    }

    /** A new subscriber of the batch; {@code name} and {@code attribs} may be null. */
    public record NewRow(String email, String name, String attribs, long line) {}

    /**
     * A subscriber of the batch that exists: its id, the line that read it, and the name and
     * attributes the file gives (null: none given, or a blank name).
     */
    public record Change(long id, long line, String name, String attribs) {}

    /** What an update writes besides the import's stamp. */
    public enum Replace { NOTHING, NAME, ATTRIBUTES, NAME_AND_ATTRIBUTES }

    /** The subscribers with these keys, by key, their rows (and the gaps where the others would be) locked for the transaction. */
    public Map<String, Found> lock(Connection c, Collection<String> keys) throws SQLException {
        Map<String, Found> found = new HashMap<>();
        if (keys.isEmpty()) {
            return found;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT id, email_key, status, import_id, import_line FROM subscriber "
                + "WHERE email_key IN (" + Sql.placeholders(keys.size()) + ") FOR UPDATE")) {
            int i = 1;
            for (String key : keys) {
                ps.setString(i++, key);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.put(rs.getString(2), new Found(rs.getLong(1), SubscriberStatus.fromDb(rs.getString(3)),
                            Optional.ofNullable(rs.getString(4)), rs.getLong(5)));
                }
            }
        }
        return found;
    }

    /**
     * One multi-row {@code INSERT IGNORE} of new subscribers, stamped with the import. An address
     * there already (in any case) keeps its row; returns how many went in.
     */
    public int insert(Connection c, List<NewRow> rows, SubscriberStatus status, String importId, Instant now) throws SQLException {
        if (rows.isEmpty()) {
            return 0;
        }
        String row = ", (?, ?, ?, ?, ?, ?, ?, ?)";
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO subscriber (email, name, attribs, status, import_id, "
                + "import_line, created_at, updated_at) VALUES " + row.substring(2) + row.repeat(rows.size() - 1))) {
            String at = SqlTime.literal(now);
            int i = 1;
            for (NewRow r : rows) {
                ps.setString(i++, r.email());
                ps.setString(i++, r.name());
                ps.setString(i++, r.attribs());
                ps.setString(i++, status.dbValue());
                ps.setString(i++, importId);
                ps.setLong(i++, r.line());
                ps.setString(i++, at);
                ps.setString(i++, at);
            }
            return ps.executeUpdate();
        }
    }

    /**
     * Stamps these subscribers with the import and their lines, and replaces what {@code replace}
     * says: a name the file gives (a blank one leaves the stored name), the attributes. One statement:
     * the rows' values are a derived table the update joins (the rows differ in line, name and
     * attributes, and VALUES() is deprecated on MySQL 8 while its row alias is unknown to MariaDB).
     * Replaced attributes' rows ({@link SubscriberAttributeTable}) are written again after it, a few
     * multi-row statements for the batch.
     */
    public void update(Connection c, List<Change> rows, Replace replace, String importId, Instant now) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        boolean name = replace == Replace.NAME || replace == Replace.NAME_AND_ATTRIBUTES;
        boolean attribs = replace == Replace.ATTRIBUTES || replace == Replace.NAME_AND_ATTRIBUTES;
        String values = "SELECT ? AS id, ? AS line, ? AS name, ? AS attribs" + " UNION ALL SELECT ?, ?, ?, ?".repeat(rows.size() - 1);
        String set = "s.import_id = ?, s.import_line = v.line"
                + (name ? ", s.name = COALESCE(v.name, s.name)" : "")
                + (attribs ? ", s.attribs = v.attribs" : "")
                + (replace == Replace.NOTHING ? "" : ", s.updated_at = ?");
        try (PreparedStatement ps = c.prepareStatement("UPDATE subscriber s JOIN (" + values + ") v ON s.id = v.id SET " + set)) {
            int i = 1;
            for (Change r : rows) {
                ps.setLong(i++, r.id());
                ps.setLong(i++, r.line());
                ps.setString(i++, r.name());
                ps.setString(i++, r.attribs());
            }
            ps.setString(i++, importId);
            if (replace != Replace.NOTHING) {
                SqlTime.set(ps, i, now);
            }
            ps.executeUpdate();
        }
        if (attribs) {
            Map<Long, String> replaced = new LinkedHashMap<>();
            rows.forEach(r -> replaced.put(r.id(), r.attribs()));
            attributes.replace(c, replaced);
        }
    }

    /**
     * Writes the attribute rows of subscribers {@link #insert} inserted ({@link SubscriberAttributeTable}):
     * id → the attributes inserted with it, a JSON object.
     */
    public void indexInserted(Connection c, Map<Long, String> attribs) throws SQLException {
        attributes.insert(c, attribs);
    }

    /** Blocklists these subscribers, in one statement. */
    public void blocklist(Connection c, Collection<Long> ids, Instant now) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE subscriber SET status = 'blocklisted', updated_at = ? WHERE id IN ("
                + Sql.placeholders(ids.size()) + ")")) {
            SqlTime.set(ps, 1, now);
            int i = 2;
            for (long id : ids) {
                ps.setLong(i++, id);
            }
            ps.executeUpdate();
        }
    }
}
