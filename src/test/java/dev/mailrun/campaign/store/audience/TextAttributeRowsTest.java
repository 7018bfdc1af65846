package dev.mailrun.campaign.store.audience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.testing.TestDatabase;
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
 * An import's attribute rows, derived in Java ({@link TextAttributeRows}), are the rows the database's
 * own derivation ({@link SubscriberAttributeTable#index}, the migration's statement) makes of the same
 * stored JSON, for the texts where the rules have edges: trailing spaces, the 190-character limit,
 * numbers at the limits of the pattern, a final line feed, non-ASCII names and digits.
 */
class TextAttributeRowsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void javaDerivationMatchesTheDatabasesForEveryEdge() throws Exception {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("plain", "pro");
        values.put("trailing spaces", "pro   ");
        values.put("leading space", " 12");
        values.put("only spaces", "   ");
        values.put("empty", "");
        values.put("tab", "a\t");
        values.put("integer", "42");
        values.put("zeros", "007");
        values.put("negative", "-12.50");
        values.put("minus zero", "-0");
        values.put("no digits after point", "1.");
        values.put("point first", ".5");
        values.put("plus", "+5");
        values.put("exponent", "1e3");
        values.put("35 digits", "9".repeat(35));
        values.put("36 digits", "9".repeat(36));
        values.put("30 decimals", "0." + "1".repeat(30));
        values.put("31 decimals", "0." + "1".repeat(31));
        values.put("line feed", "12\n");
        values.put("carriage return", "12\r");
        values.put("two line feeds", "12\n\n");
        values.put("wide digits", "１２");
        values.put("190", "é".repeat(190));
        values.put("190 and spaces", "x".repeat(190) + "  ");
        values.put("191", "x".repeat(191));
        values.put("say \"hi\" \\ ü", "Ünï ");
        values.put("quote\"", "q");

        String json = MAPPER.writeValueAsString(values);
        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("DELETE FROM subscriber");
            }
            long id;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO subscriber (email, attribs, status, created_at, updated_at) "
                    + "VALUES ('edges@example.com', ?, 'enabled', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))", Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, json);
                ps.executeUpdate();
                try (ResultSet rs = ps.getGeneratedKeys()) {
                    rs.next();
                    id = rs.getLong(1);
                }
            }
            new SubscriberAttributeTable().index(c, List.of(id), true);
            List<String> byDatabase = rows(c, id);
            new TextAttributeRows().replace(c, Map.of(id, json));
            List<String> byJava = rows(c, id);
            c.rollback();

            assertThat(byDatabase).hasSize(values.size());
            assertThat(byJava).containsExactlyElementsOf(byDatabase);
        }
    }

    /**
     * A character outside the Basic Multilingual Plane (an emoji) is kept whole and counts as one
     * character. Not compared with the database's derivation: MariaDB 11.4's JSON_UNQUOTE returns
     * utf8mb3 and turns such a character into '?' (10.11 keeps it), so there the database's rows are
     * the wrong ones.
     */
    @Test
    void aCharacterOutsideTheBasicPlaneIsKeptAndCountedOnce() {
        String emoji = "😀".repeat(190);
        assertThat(TextAttributeRows.row(1, "mood", emoji)).isEqualTo(new TextAttributeRows.Row(1, "mood", emoji, null, null));
        assertThat(TextAttributeRows.row(1, "mood", emoji + "😀").textLong()).isEqualTo(emoji + "😀");
    }

    @Test
    void aValueThatIsNotATextIsRefused() {
        assertThatThrownBy(() -> TextAttributeRows.rows(1, "{\"seats\": 3}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("attribute 'seats' is not a text");
        assertThat(TextAttributeRows.rows(1, null)).isEmpty();
    }

    /** Every row of the subscriber, in name order, with NULLs spelled out and numbers as the column holds them. */
    private static List<String> rows(Connection c, long id) throws Exception {
        List<String> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT CONVERT(name USING utf8mb4), text_value, text_long, num_value "
                + "FROM subscriber_attribute WHERE subscriber_id = ? ORDER BY name")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(rs.getString(1) + " | " + rs.getString(2) + " | " + rs.getString(3) + " | " + rs.getString(4));
                }
            }
        }
        return rows;
    }
}
