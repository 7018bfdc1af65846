package dev.mailrun.campaign.store.audience;

import dev.mailrun.db.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collection;

/**
 * The subscriber_attribute table: each subscriber's attributes as rows (name, text, number), which
 * serve a segment's attribute conditions from an index ({@link SubscriberFilterSql}). The rows are
 * derived from {@code subscriber.attribs} by the database, with the filters' own expressions (the
 * text is {@code JSON_UNQUOTE(JSON_EXTRACT(…))}, the number that text when written as a decimal; see
 * V42's migration for the columns), so a
 * condition read here matches exactly whom it matches over the JSON. Whoever writes {@code attribs}
 * calls {@link #index} for those subscribers in the same transaction (an import, whose attributes are
 * all texts, calls {@link TextAttributeRows}, which derives the same rows without the database);
 * deleting a subscriber deletes its rows (ON DELETE CASCADE).
 */
public final class SubscriberAttributeTable {

    /**
     * The longest text (without trailing spaces) kept whole in the index ({@code text_value}); a
     * longer one is in {@code text_long}. Trailing spaces never count: the filters compare texts
     * with utf8mb4_bin, which ignores them.
     */
    public static final int INDEXED_TEXT = 190;

    /** How many subscribers one statement derives; an import's batch may hold more. */
    private static final int IDS_PER_STATEMENT = 1_000;

    /** The subscribers' attributes as rows: the statement of V42's migration, over the ids bound. */
    private static final String DERIVE = """
            INSERT INTO subscriber_attribute (subscriber_id, name, text_value, text_long, num_value)
            SELECT v.id, v.name,
                   CASE WHEN CHAR_LENGTH(TRIM(TRAILING ' ' FROM v.t)) <= 190 THEN TRIM(TRAILING ' ' FROM v.t) END,
                   CASE WHEN CHAR_LENGTH(TRIM(TRAILING ' ' FROM v.t)) > 190 THEN v.t END,
                   CASE WHEN v.t REGEXP '^-?[0-9]{1,35}([.][0-9]{1,30})?$' THEN CAST(v.t AS DECIMAL(65,30)) END
            FROM (SELECT s.id, k.name, JSON_UNQUOTE(JSON_EXTRACT(s.attribs, CONCAT('$."',
                         REPLACE(REPLACE(k.name COLLATE utf8mb4_bin, CHAR(92 USING utf8mb4), CONCAT(CHAR(92 USING utf8mb4), CHAR(92 USING utf8mb4))),
                                 '"', CONCAT(CHAR(92 USING utf8mb4), '"')), '"'))) AS t
                  FROM subscriber s,
                       JSON_TABLE(JSON_KEYS(s.attribs), '$[*]' COLUMNS (name VARCHAR(64) CHARACTER SET utf8mb4 PATH '$')) AS k
                  WHERE s.attribs IS NOT NULL AND s.id IN (%s)) v""";

    private static final String DELETE = "DELETE FROM subscriber_attribute WHERE subscriber_id IN (%s)";

    /** Deletes these subscribers' rows. */
    static void delete(Connection c, Collection<Long> subscriberIds) throws SQLException {
        Long[] ids = subscriberIds.toArray(Long[]::new);
        for (int from = 0; from < ids.length; from += IDS_PER_STATEMENT) {
            int n = Math.min(IDS_PER_STATEMENT, ids.length - from);
            run(c, DELETE.formatted(Sql.placeholders(n)), ids, from, n);
        }
    }

    /**
     * Makes the rows of these subscribers what their stored attributes say now: their old rows
     * deleted, unless {@code fresh} (subscribers inserted in this transaction, which have none).
     */
    public void index(Connection c, Collection<Long> subscriberIds, boolean fresh) throws SQLException {
        Long[] ids = subscriberIds.toArray(Long[]::new);
        for (int from = 0; from < ids.length; from += IDS_PER_STATEMENT) {
            int n = Math.min(IDS_PER_STATEMENT, ids.length - from);
            if (!fresh) {
                run(c, DELETE.formatted(Sql.placeholders(n)), ids, from, n);
            }
            run(c, DERIVE.formatted(Sql.placeholders(n)), ids, from, n);
        }
    }

    private static void run(Connection c, String sql, Long[] ids, int from, int n) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < n; i++) {
                ps.setLong(i + 1, ids[from + i]);
            }
            ps.executeUpdate();
        }
    }
}
