package dev.mailrun.campaign.store.audience;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code subscriber_attribute} rows of one subscriber's attributes, derived in Java from the JSON
 * object written to {@code subscriber.attribs}; {@link SubscriberAttributeTable} writes them. The rows
 * are those V42's migration derives in the database, value type by value type: the text is what
 * MariaDB's {@code JSON_UNQUOTE(JSON_EXTRACT(attribs, path))} gives —
 *
 * <ul>
 *   <li>a string: itself, unescaped;</li>
 *   <li>a number: as the JSON writes it ({@code 1.50}, {@code 1E3}, {@code -0});</li>
 *   <li>{@code true}, {@code false}, {@code null}: that word;</li>
 *   <li>an object or an array: the JSON re-spaced as the server writes it, {@code ": "} after a name and
 *       {@code ", "} between members, nothing else outside strings, strings and numbers as written;</li>
 * </ul>
 *
 * and from the text:
 *
 * <ul>
 *   <li>{@code text_value}: the text without trailing spaces, when that is at most
 *       {@link SubscriberAttributeTable#INDEXED_TEXT} characters; else {@code text_long}: the text as it is;</li>
 *   <li>{@code num_value}: the text as a decimal when it matches the migration's
 *       {@code ^-?[0-9]{1,35}([.][0-9]{1,30})?$}. The server's {@code $} also matches before a final
 *       line feed (and its cast then ignores the line feed), so this pattern allows one too.</li>
 * </ul>
 *
 * Derived here rather than by the database because MariaDB 11.4's JSON_UNQUOTE returns utf8mb3 and
 * turns a character outside the Basic Multilingual Plane (an emoji) into '?', and because, for an
 * import, the database's derivation (JSON_TABLE, a regular expression and a cast per value) cost more
 * than any other statement. AttributeRowsTest holds the two derivations to the same rows.
 */
final class AttributeRows {

    private static final Pattern NUMBER = Pattern.compile("-?[0-9]{1,35}([.][0-9]{1,30})?\n?");
    private static final JsonFactory JSON = new JsonFactory();

    private AttributeRows() {}

    /** One attribute row: the subscriber, the name, exactly one of the two texts, and the number or null. */
    record Row(long subscriberId, String name, String textValue, String textLong, BigDecimal numValue) {

        /** Roughly what the row takes in a statement, to bound a statement's size. */
        int chars() {
            return name.length() + (textValue == null ? textLong.length() : textValue.length());
        }
    }

    /** The rows of one subscriber's attributes ({@code json}: a JSON object, or null for none). */
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
                p.nextToken();
                rows.add(row(subscriberId, name, text(p, json)));
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

    /** The text of the value the parser is on, as JSON_UNQUOTE(JSON_EXTRACT(…)) gives it; leaves the parser at its end. */
    private static String text(JsonParser p, String json) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            int from = (int) p.currentTokenLocation().getCharOffset();
            p.skipChildren();
            return spaced(json, from, (int) p.currentLocation().getCharOffset());
        }
        // A number's text is its characters as written; true, false and null are their words.
        return p.getText();
    }

    /**
     * The object or array {@code json[from, to)} as MariaDB's JSON_EXTRACT writes a nested value: every
     * space outside strings dropped, then one after each ':' and ','; strings (names too) as written,
     * escapes and all.
     */
    static String spaced(String json, int from, int to) {
        StringBuilder out = new StringBuilder(to - from + 16);
        boolean inString = false;
        for (int i = from; i < to; i++) {
            char ch = json.charAt(i);
            if (inString) {
                out.append(ch);
                if (ch == '\\') {
                    out.append(json.charAt(++i));
                } else if (ch == '"') {
                    inString = false;
                }
            } else if (ch == '"') {
                inString = true;
                out.append(ch);
            } else if (ch == ':' || ch == ',') {
                out.append(ch).append(' ');
            } else if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r') {
                out.append(ch);
            }
        }
        return out.toString();
    }
}
