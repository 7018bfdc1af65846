package dev.mailrun.campaign.store.audience;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code subscriber_attribute} rows of subscribers whose attributes are all texts — what an import
 * writes, its columns being a JSON object of strings — derived here instead of by the database, and
 * written in multi-row inserts. The database's derivation ({@link SubscriberAttributeTable}: JSON_TABLE
 * over the stored JSON, a regular expression and a cast per value) cost an import more than any other
 * statement; for a text the same rules are a few string operations:
 *
 * <ul>
 *   <li>{@code text_value}: the text without trailing spaces, when that is at most
 *       {@link SubscriberAttributeTable#INDEXED_TEXT} characters; else {@code text_long}: the text as it is;</li>
 *   <li>{@code num_value}: the text as a decimal when it matches the migration's
 *       {@code ^-?[0-9]{1,35}([.][0-9]{1,30})?$}. The server's {@code $} also matches before a final
 *       line feed (and its cast then ignores the line feed), so this pattern allows one too.</li>
 * </ul>
 *
 * TextAttributeRowsTest holds the two derivations to the same rows for the edge cases. Attributes
 * with a number or a boolean value go through {@link SubscriberAttributeTable#index}.
 */
public final class TextAttributeRows {

    private static final Pattern NUMBER = Pattern.compile("-?[0-9]{1,35}([.][0-9]{1,30})?\n?");
    private static final JsonFactory JSON = new JsonFactory();
    /** Rows per statement, and the characters one statement carries at most (well below max_allowed_packet). */
    private static final int ROWS_PER_STATEMENT = 2_000;
    private static final int CHARS_PER_STATEMENT = 1 << 20;

    /** One attribute row: the subscriber, the name, and exactly one of the two texts. */
    record Row(long subscriberId, String name, String textValue, String textLong, BigDecimal numValue) {}

    /**
     * Inserts the rows of these subscribers ({@code attribs}: id → a JSON object of strings, as the
     * subscriber row holds it), which must have none yet: subscribers inserted or whose rows were
     * deleted in this transaction.
     *
     * @throws IllegalArgumentException when a value is not a string: those go through the database's derivation
     */
    public void insert(Connection c, Map<Long, String> attribs) throws SQLException {
        List<Row> rows = new ArrayList<>();
        int chars = 0;
        for (Map.Entry<Long, String> e : attribs.entrySet()) {
            for (Row r : rows(e.getKey(), e.getValue())) {
                rows.add(r);
                chars += r.name().length() + (r.textValue() == null ? r.textLong().length() : r.textValue().length());
                if (rows.size() == ROWS_PER_STATEMENT || chars >= CHARS_PER_STATEMENT) {
                    write(c, rows);
                    rows.clear();
                    chars = 0;
                }
            }
        }
        write(c, rows);
    }

    /** Deletes these subscribers' rows, then inserts them as {@link #insert} does: attributes replaced. */
    public void replace(Connection c, Map<Long, String> attribs) throws SQLException {
        SubscriberAttributeTable.delete(c, attribs.keySet());
        insert(c, attribs);
    }

    /** The rows of one subscriber's attributes, a JSON object of strings. */
    static List<Row> rows(long subscriberId, String json) {
        List<Row> rows = new ArrayList<>();
        if (json == null) {
            return rows;
        }
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("attributes are not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                if (p.nextToken() != JsonToken.VALUE_STRING) {
                    throw new IllegalArgumentException("attribute '" + name + "' is not a text");
                }
                rows.add(row(subscriberId, name, p.getText()));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("attributes are not valid JSON: " + e.getMessage(), e);
        }
        return rows;
    }

    static Row row(long subscriberId, String name, String text) {
        int end = text.length();
        while (end > 0 && text.charAt(end - 1) == ' ') {
            end--;
        }
        String trimmed = text.substring(0, end);
        boolean indexed = trimmed.codePointCount(0, trimmed.length()) <= SubscriberAttributeTable.INDEXED_TEXT;
        BigDecimal number = NUMBER.matcher(text).matches() ? new BigDecimal(text.strip()) : null;
        return new Row(subscriberId, name, indexed ? trimmed : null, indexed ? null : text, number);
    }

    private static void write(Connection c, List<Row> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        String row = ", (?, ?, ?, ?, ?)";
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO subscriber_attribute (subscriber_id, name, text_value, "
                + "text_long, num_value) VALUES " + row.substring(2) + row.repeat(rows.size() - 1))) {
            int i = 1;
            for (Row r : rows) {
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
