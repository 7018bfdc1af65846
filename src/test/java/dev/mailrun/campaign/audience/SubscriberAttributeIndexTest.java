package dev.mailrun.campaign.audience;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.audience.segment.Segments;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.importing.ImportSettings;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.store.audience.SubscriberAttributeTable;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rows of subscriber_attribute, which serve the segments' attribute conditions, follow every write
 * of a subscriber's attributes in its transaction: adding and changing one, each import mode that
 * writes attributes, deleting. Each row is the attribute's text as the JSON gives it and, for a
 * text written as a decimal, its number.
 */
class SubscriberAttributeIndexTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    Path dir;

    private final SettableClock clock = SettableClock.at("2026-12-01T12:00:00Z");
    private final Subscribers subscribers = new Subscribers(db.dataSource(), clock, AddressFilter.none());
    private final SubscriberImporter importer = new SubscriberImporter(db.dataSource(), clock, AddressFilter.none(), ImportSettings.defaults());

    @BeforeEach
    void empty() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
        }
        new Lists(db.dataSource(), clock).create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
    }

    @Test
    void adding_and_changing_a_subscriber_writes_and_replaces_its_attribute_rows() throws Exception {
        Map<String, Object> attributes = new LinkedHashMap<>();
        attributes.put("plan", "pro");
        attributes.put("seats", new BigDecimal("3.50"));
        attributes.put("vip", true);
        attributes.put("say \"hi\" \\ ü", "Ünï ");
        attributes.put("code", "-12.5");
        subscribers.upsert(new SubscriberForm("a@example.com", Optional.empty(), Optional.of(attributes), List.of()), SubscriptionSource.OPERATOR);

        assertThat(rows("a@example.com")).containsExactly(
                "code=-12.5 #-12.5",
                "plan=pro",
                "say \"hi\" \\ ü=Ünï",
                "seats=3.50 #3.5",
                "vip=true");

        subscribers.upsert(new SubscriberForm("a@example.com", Optional.empty(), Optional.of(Map.of("plan", "team")), List.of()),
                SubscriptionSource.OPERATOR);
        assertThat(rows("a@example.com")).containsExactly("plan=team");

        subscribers.upsert(new SubscriberForm("a@example.com", Optional.empty(), Optional.of(Map.of()), List.of()), SubscriptionSource.OPERATOR);
        assertThat(rows("a@example.com")).isEmpty();
    }

    @Test
    void an_import_writes_the_rows_of_the_people_it_adds_and_an_update_import_replaces_them() throws Exception {
        subscribers.upsert(new SubscriberForm("old@example.com", Optional.empty(), Optional.of(Map.of("plan", "free", "gone", "x")),
                List.of()), SubscriptionSource.OPERATOR);

        importer.importCsv("news", ImportMode.ADD, csv("email,plan,score\nnew@example.com,pro,42\nold@example.com,team,7\n"),
                Optional.empty(), n -> {});
        assertThat(rows("new@example.com")).containsExactly("plan=pro", "score=42 #42");
        assertThat(rows("old@example.com")).as("add mode leaves the attributes of people there before").containsExactly("gone=x", "plan=free");

        importer.importCsv("news", ImportMode.UPDATE, csv("email,plan,score\nold@example.com,team,1e3\n"), Optional.empty(), n -> {});
        assertThat(rows("old@example.com")).as("a text that is no decimal has no number").containsExactly("plan=team", "score=1e3");
    }

    /**
     * An emoji (outside the Basic Multilingual Plane) written through the upsert and the change by id
     * (what the API, the console and the command line call) stays whole in the rows. The database's
     * JSON_UNQUOTE, which derived them before, gives '?' for it on MariaDB 11.4.
     */
    @Test
    void an_emoji_written_by_upsert_or_change_is_kept_in_the_rows() throws Exception {
        emojiPeople();
        assertThat(rows("a@example.com")).containsExactly("mood=sunny 😀", "n=1 #1");
        assertThat(rows("b@example.com")).containsExactly("mood=🎉 party", "😀=yes");
    }

    /** The conditions naming an emoji find whoever has it; {@code contains} read it as '?' on MariaDB 11.4 before. */
    @Test
    void contains_and_eq_find_an_emoji() throws Exception {
        emojiPeople();
        Segments segments = new Segments(db.dataSource(), clock);
        assertThat(segments.countFilter("{\"attr\": \"mood\", \"contains\": \"😀\"}")).isEqualTo(1);
        assertThat(segments.countFilter("{\"attr\": \"mood\", \"contains\": \"🎉 P\"}")).isEqualTo(1);
        assertThat(segments.countFilter("{\"attr\": \"mood\", \"contains\": \"?\"}")).isZero();
        assertThat(segments.countFilter("{\"attr\": \"mood\", \"eq\": \"sunny 😀\"}")).isEqualTo(1);
        assertThat(segments.countFilter("{\"attr\": \"😀\", \"exists\": true}")).isEqualTo(1);
    }

    /** a@ added with an emoji; b@ added without, then changed by id to one. */
    private void emojiPeople() throws Exception {
        subscribers.upsert(new SubscriberForm("a@example.com", Optional.empty(), Optional.of(Map.of("mood", "sunny 😀", "n", 1)),
                List.of()), SubscriptionSource.OPERATOR);
        long id = subscribers.upsert(new SubscriberForm("b@example.com", Optional.empty(), Optional.of(Map.of("mood", "grey")),
                List.of()), SubscriptionSource.OPERATOR).subscriber().id();
        subscribers.change(id, new SubscriberPatch(Optional.empty(), Optional.of(Map.of("mood", "🎉 party", "😀", "yes")),
                Optional.empty()), SubscriptionSource.API);
    }

    /** {@code contains} reads the text without its trailing spaces, short or long, as {@code eq} compares it. */
    @Test
    void contains_reads_a_text_without_its_trailing_spaces() throws Exception {
        subscribers.upsert(new SubscriberForm("short@example.com", Optional.empty(), Optional.of(Map.of("bio", "ab  ")), List.of()),
                SubscriptionSource.OPERATOR);
        subscribers.upsert(new SubscriberForm("long@example.com", Optional.empty(),
                Optional.of(Map.of("bio", "x".repeat(SubscriberAttributeTable.INDEXED_TEXT) + "ab  ")), List.of()), SubscriptionSource.OPERATOR);
        Segments segments = new Segments(db.dataSource(), clock);

        assertThat(segments.countFilter("{\"attr\": \"bio\", \"contains\": \"AB\"}")).isEqualTo(2);
        assertThat(segments.countFilter("{\"attr\": \"bio\", \"contains\": \"b \"}")).isZero();
    }

    @Test
    void deleting_a_subscriber_deletes_its_attribute_rows() throws Exception {
        subscribers.upsert(new SubscriberForm("a@example.com", Optional.empty(), Optional.of(Map.of("plan", "pro")), List.of()),
                SubscriptionSource.OPERATOR);
        subscribers.delete("a@example.com");
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM subscriber_attribute")) {
            rs.next();
            assertThat(rs.getLong(1)).isZero();
        }
    }

    private Path csv(String content) throws Exception {
        Path f = dir.resolve("people.csv");
        Files.writeString(f, content, StandardCharsets.UTF_8);
        return f;
    }

    @Test
    void texts_longer_than_the_index_holds_and_trailing_spaces_compare_as_over_the_json() throws Exception {
        String longText = "x".repeat(SubscriberAttributeTable.INDEXED_TEXT) + "y";
        subscribers.upsert(new SubscriberForm("long@example.com", Optional.empty(), Optional.of(Map.of("bio", longText)), List.of()),
                SubscriptionSource.OPERATOR);
        subscribers.upsert(new SubscriberForm("pad@example.com", Optional.empty(),
                Optional.of(Map.of("bio", "x".repeat(SubscriberAttributeTable.INDEXED_TEXT) + "   ")), List.of()), SubscriptionSource.OPERATOR);
        Segments segments = new Segments(db.dataSource(), clock);

        assertThat(segments.countFilter("{\"attr\": \"bio\", \"eq\": \"" + longText + "\"}")).isEqualTo(1);
        assertThat(segments.countFilter("{\"attr\": \"bio\", \"in\": [\"" + longText + "\", \"" + "x".repeat(190) + "\"]}"))
                .as("utf8mb4_bin ignores trailing spaces, over the JSON as here").isEqualTo(2);
        assertThat(segments.countFilter("{\"attr\": \"bio\", \"eq\": \"" + longText + "  \"}")).isEqualTo(1);
        assertThat(segments.countFilter("{\"not\": {\"attr\": \"bio\", \"eq\": \"" + longText + "\"}}")).isEqualTo(1);
    }

    /** The subscriber's rows as {@code name=text} and, with a number, {@code  #number}, in name order (bytes). */
    private List<String> rows(String email) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT a.name, COALESCE(a.text_value, a.text_long), a.num_value FROM subscriber_attribute a JOIN subscriber s ON s.id = a.subscriber_id
                WHERE s.email_key = ? ORDER BY a.name""")) {
            ps.setString(1, email);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    BigDecimal n = rs.getBigDecimal(3);
                    rows.add(new String(rs.getBytes(1), StandardCharsets.UTF_8) + "=" + rs.getString(2)
                            + (n == null ? "" : " #" + n.stripTrailingZeros().toPlainString()));
                }
            }
        }
        return rows;
    }
}
