package dev.mailrun.campaign.store.audience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.testing.TestDatabase;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The attribute rows derived in Java ({@link AttributeRows}, written by {@link SubscriberAttributeTable})
 * are the rows the database's derivation — V42's migration statement, which derived them for every
 * write before — makes of the same stored JSON: for texts where the rules have edges (trailing spaces,
 * the 190-character limit, numbers at the limits of the pattern, a final line feed, non-ASCII names and
 * digits) and for every other type of JSON value (numbers as written, true, false, null, objects and
 * arrays).
 */
class AttributeRowsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void javaDerivationMatchesTheDatabasesForEveryEdgeAndType() throws Exception {
        Map<String, String> texts = new LinkedHashMap<>();
        texts.put("plain", "pro");
        texts.put("trailing spaces", "pro   ");
        texts.put("leading space", " 12");
        texts.put("only spaces", "   ");
        texts.put("empty", "");
        texts.put("tab", "a\t");
        texts.put("integer", "42");
        texts.put("zeros", "007");
        texts.put("negative", "-12.50");
        texts.put("minus zero", "-0");
        texts.put("no digits after point", "1.");
        texts.put("point first", ".5");
        texts.put("plus", "+5");
        texts.put("exponent", "1e3");
        texts.put("35 digits", "9".repeat(35));
        texts.put("36 digits", "9".repeat(36));
        texts.put("30 decimals", "0." + "1".repeat(30));
        texts.put("31 decimals", "0." + "1".repeat(31));
        texts.put("line feed", "12\n");
        texts.put("carriage return", "12\r");
        texts.put("two line feeds", "12\n\n");
        texts.put("wide digits", "１２");
        texts.put("190", "é".repeat(190));
        texts.put("190 and spaces", "x".repeat(190) + "  ");
        texts.put("191", "x".repeat(191));
        texts.put("emoji 190", "😀".repeat(190));
        texts.put("say \"hi\" \\ ü", "Ünï ");
        texts.put("quote\"", "q");
        // Other values as a client's JSON may write them: Jackson would rewrite -0, 1E3 and the spaces.
        Map<String, String> others = new LinkedHashMap<>();
        others.put("n int", "42");
        others.put("n 30 digits", "1".repeat(30));
        others.put("n 36 digits", "9".repeat(36));
        others.put("n decimal", "1.50");
        others.put("n negative", "-12.5");
        others.put("n minus zero", "-0");
        others.put("n exponent", "1E3");
        others.put("n small", "2.5e-3");
        others.put("yes", "true");
        others.put("no", "false");
        others.put("nothing", "null");
        others.put("object", "{ \"k\" :1.50,\"s\":\"q\\\"\\u00e9, 😀: {}\",\"e\":{},\"z\":[1,true,[ ]]}");
        others.put("array", "[ 1,\"é\" , null,\n-0]");
        others.put("long array", "[" + "\"abc\",".repeat(40) + "1]");
        others.put("empty object", "{}");
        others.put("empty array", "[]");
        others.put("mood 😀", "\"ok\"");
        StringBuilder json = new StringBuilder(MAPPER.writeValueAsString(texts));
        json.setLength(json.length() - 1);
        for (Map.Entry<String, String> e : others.entrySet()) {
            json.append(", ").append(MAPPER.writeValueAsString(e.getKey())).append(": ").append(e.getValue());
        }
        json.append('}');

        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("DELETE FROM subscriber");
            }
            long id;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO subscriber (email, attribs, status, created_at, updated_at) "
                    + "VALUES ('edges@example.com', ?, 'enabled', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))", Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, json.toString());
                ps.executeUpdate();
                try (ResultSet rs = ps.getGeneratedKeys()) {
                    rs.next();
                    id = rs.getLong(1);
                }
            }
            try (Statement s = c.createStatement()) {
                s.executeUpdate(databaseDerivation());
            }
            List<String> byDatabase = rows(c, id);
            new SubscriberAttributeTable().replace(c, Map.of(id, json.toString()));
            List<String> byJava = rows(c, id);
            c.rollback();

            assertThat(byDatabase).hasSize(texts.size() + others.size());
            // MariaDB 11.4's JSON_UNQUOTE returns utf8mb3 and makes each emoji of a text '?' (10.11 keeps
            // them): compared with that the one difference, which the Java derivation fixes (below).
            assertThat(byJava.stream().map(AttributeRowsTest::asUtf8mb3).toList()).containsExactlyElementsOf(byDatabase.stream()
                    .map(AttributeRowsTest::asUtf8mb3).toList());
            assertThat(byJava).contains("emoji 190 | '" + "😀".repeat(190) + "' | NULL | NULL", "mood 😀 | 'ok' | NULL | NULL",
                    "nothing | 'null' | NULL | NULL");
        }
    }

    /**
     * A character outside the Basic Multilingual Plane (an emoji) is kept whole, written or escaped
     * as a surrogate pair, and counts as one character.
     */
    @Test
    void aCharacterOutsideTheBasicPlaneIsKeptAndCountedOnce() {
        String emoji = "😀".repeat(190);
        assertThat(AttributeRows.row(1, "mood", emoji)).isEqualTo(new AttributeRows.Row(1, "mood", emoji, null, null));
        assertThat(AttributeRows.row(1, "mood", emoji + "😀").textLong()).isEqualTo(emoji + "😀");
        assertThat(AttributeRows.rows(1, "{\"mood\": \"a\\ud83d\\ude00\", \"😀\": \"b😀\"}")).containsExactly(
                new AttributeRows.Row(1, "mood", "a😀", null, null), new AttributeRows.Row(1, "😀", "b😀", null, null));
    }

    @Test
    void onlyAJsonObjectHasRows() {
        assertThatThrownBy(() -> AttributeRows.rows(1, "[1]")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("attributes are not a JSON object");
        assertThat(AttributeRows.rows(1, null)).isEmpty();
        assertThat(AttributeRows.rows(1, "{}")).isEmpty();
    }

    /** The last statement of V42's migration: the rows of every subscriber, derived by the database. */
    private static String databaseDerivation() throws Exception {
        try (InputStream in = AttributeRowsTest.class.getResourceAsStream("/db/migration/V42__subscriber_attribute.sql")) {
            String migration = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            String statement = migration.substring(migration.lastIndexOf("INSERT INTO subscriber_attribute")).strip();
            return statement.substring(0, statement.length() - 1);
        }
    }

    /** {@code s} with every character outside the Basic Multilingual Plane as '?', as utf8mb3 holds it. */
    private static String asUtf8mb3(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().forEach(cp -> b.appendCodePoint(Character.isBmpCodePoint(cp) ? cp : '?'));
        return b.toString();
    }

    /** A column's value quoted, so that the text 'null' is told from NULL. */
    private static String shown(String value) {
        return value == null ? "NULL" : "'" + value + "'";
    }

    /** Every row of the subscriber, in name order, with NULLs spelled out and numbers as the column holds them. */
    private static List<String> rows(Connection c, long id) throws Exception {
        List<String> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT CONVERT(name USING utf8mb4), text_value, text_long, num_value "
                + "FROM subscriber_attribute WHERE subscriber_id = ? ORDER BY name")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(rs.getString(1) + " | " + shown(rs.getString(2)) + " | " + shown(rs.getString(3)) + " | " + shown(rs.getString(4)));
                }
            }
        }
        return rows;
    }
}
