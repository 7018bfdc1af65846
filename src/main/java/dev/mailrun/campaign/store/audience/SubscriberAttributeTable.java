package dev.mailrun.campaign.store.audience;

import dev.mailrun.db.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The subscriber_attribute table: each subscriber's attributes as rows (name, text, number), which
 * serve a segment's attribute conditions from an index ({@link SubscriberFilterSql}). The rows are
 * derived from the JSON written to {@code subscriber.attribs} by {@link AttributeRows}, in Java, with
 * the rules of V42's migration (see its columns), so a condition read here matches exactly whom the
 * filters' expressions would over the JSON. Whoever writes {@code attribs} calls {@link #insert} or
 * {@link #replace} for those subscribers in the same transaction, with the JSON it wrote: one
 * subscriber ({@link SubscriberTable}) or an import's batch ({@link SubscriberImports}), in a few
 * multi-row statements either way. Deleting a subscriber deletes its rows (ON DELETE CASCADE).
 */
public final class SubscriberAttributeTable {

    /**
     * The longest text (without trailing spaces) kept whole in the index ({@code text_value}); a
     * longer one is in {@code text_long}. Trailing spaces never count: the filters compare texts
     * with utf8mb4_bin, which ignores them.
     */
    public static final int INDEXED_TEXT = 190;

    /** How many subscribers one DELETE names; an import's batch may hold more. */
    private static final int IDS_PER_STATEMENT = 1_000;
    /** Rows per INSERT, and the characters one INSERT carries at most (well below max_allowed_packet). */
    private static final int ROWS_PER_STATEMENT = 2_000;
    private static final int CHARS_PER_STATEMENT = 1 << 20;

    private static final String DELETE = "DELETE FROM subscriber_attribute WHERE subscriber_id IN (%s)";
    private static final String INSERT = "INSERT INTO subscriber_attribute (subscriber_id, name, text_value, text_long, num_value) VALUES ";
    private static final String ROW = "(?, ?, ?, ?, ?)";

    /**
     * Inserts the rows of these subscribers ({@code attribs}: id → the JSON object written to their
     * row, null for none), which must have none yet: subscribers inserted in this transaction.
     */
    public void insert(Connection c, Map<Long, String> attribs) throws SQLException {
        List<AttributeRows.Row> rows = new ArrayList<>();
        int chars = 0;
        for (Map.Entry<Long, String> e : attribs.entrySet()) {
            for (AttributeRows.Row r : AttributeRows.rows(e.getKey(), e.getValue())) {
                rows.add(r);
                chars += r.chars();
                if (rows.size() == ROWS_PER_STATEMENT || chars >= CHARS_PER_STATEMENT) {
                    write(c, rows);
                    rows.clear();
                    chars = 0;
                }
            }
        }
        write(c, rows);
    }

    /** Makes these subscribers' rows what {@code attribs} (as for {@link #insert}) says now: the old rows deleted first. */
    public void replace(Connection c, Map<Long, String> attribs) throws SQLException {
        delete(c, attribs.keySet());
        insert(c, attribs);
    }

    /** Deletes these subscribers' rows. */
    private static void delete(Connection c, Collection<Long> subscriberIds) throws SQLException {
        Long[] ids = subscriberIds.toArray(Long[]::new);
        for (int from = 0; from < ids.length; from += IDS_PER_STATEMENT) {
            int n = Math.min(IDS_PER_STATEMENT, ids.length - from);
            try (PreparedStatement ps = c.prepareStatement(DELETE.formatted(Sql.placeholders(n)))) {
                for (int i = 0; i < n; i++) {
                    ps.setLong(i + 1, ids[from + i]);
                }
                ps.executeUpdate();
            }
        }
    }

    private static void write(Connection c, List<AttributeRows.Row> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(INSERT + ROW + (", " + ROW).repeat(rows.size() - 1))) {
            int i = 1;
            for (AttributeRows.Row r : rows) {
                ps.setLong(i++, r.subscriberId());
                ps.setString(i++, r.name());
                ps.setString(i++, r.textValue());
                ps.setString(i++, r.textLong());
                if (r.numValue() == null) {
                    ps.setNull(i++, Types.DECIMAL);
                } else {
                    ps.setBigDecimal(i++, r.numValue());
                }
            }
            ps.executeUpdate();
        }
    }
}
