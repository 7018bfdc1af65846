package dev.mailrun.campaign.audience.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberForm;
import dev.mailrun.campaign.audience.Subscribers;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriberStatus;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.store.audience.SegmentTable;
import dev.mailrun.campaign.store.audience.SubscriberMatches;
import dev.mailrun.db.SqlTime;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link Segments} on the real database: every condition of the grammar, counts, previews, saved segments. */
class SegmentsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-12-01T12:00:00Z");
    private final Segments segments = new Segments(db.dataSource(), clock);
    private final Lists lists = new Lists(db.dataSource(), clock);
    private final Subscribers subscribers = new Subscribers(db.dataSource(), clock, AddressFilter.none());

    @BeforeEach
    void empty() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM segment");
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
            s.execute("DELETE FROM campaign");
        }
    }

    private void person(String email, Map<String, ?> attributes, String... onLists) throws Exception {
        subscribers.upsert(new SubscriberForm(email, Optional.of(email.substring(0, email.indexOf('@'))), Optional.of(attributes),
                List.of(onLists)), SubscriptionSource.OPERATOR);
    }

    private List<String> matching(String filter) throws Exception {
        return segments.preview(filter, 100).stream().map(SubscriberMatches.Match::email).toList();
    }

    private void sql(String statement, Object... params) throws Exception {
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(statement)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
        }
    }

    private long recipient(long campaign, String email) throws Exception {
        sql("INSERT INTO recipient (campaign_id, email, status, updated_at) VALUES (?, ?, 'sent', UTC_TIMESTAMP(3))", campaign, email);
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT id FROM recipient WHERE campaign_id = ? AND email = ?")) {
            ps.setLong(1, campaign);
            ps.setString(2, email);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private void tracked(long campaign, long recipient, String kind, String cls, Instant at) throws Exception {
        sql("INSERT INTO tracking_event (campaign_id, recipient_id, kind, link_index, class, at) VALUES (?, ?, ?, ?, ?, ?)",
                campaign, recipient, kind, kind.equals("click") ? 0 : null, cls, SqlTime.literal(at));
    }

    @Test
    void eq_matches_the_exact_text_and_a_number_as_a_number() throws Exception {
        person("ann@example.com", Map.of("plan", "pro", "age", "42"));
        person("bob@example.com", Map.of("plan", "Pro", "age", 42.0));
        person("cat@example.com", Map.of("plan", "free", "age", 7));
        assertThat(matching("{\"attr\":\"plan\",\"eq\":\"pro\"}")).containsExactly("ann@example.com");
        assertThat(matching("{\"attr\":\"age\",\"eq\":42}")).containsExactly("ann@example.com", "bob@example.com");
    }

    @Test
    void ne_and_not_take_in_everyone_without_the_attribute() throws Exception {
        person("ann@example.com", Map.of("plan", "pro"));
        person("bob@example.com", Map.of("plan", "free"));
        person("cat@example.com", Map.of());
        assertThat(matching("{\"attr\":\"plan\",\"ne\":\"pro\"}")).containsExactly("bob@example.com", "cat@example.com");
        assertThat(matching("{\"not\":{\"attr\":\"plan\",\"eq\":\"pro\"}}")).containsExactly("bob@example.com", "cat@example.com");
    }

    @Test
    void contains_ignores_letter_case_and_takes_percent_and_underscore_literally() throws Exception {
        person("ann@example.com", Map.of("note", "Saved 50% off"));
        person("bob@example.com", Map.of("note", "saved 50 dollars"));
        person("cat@example.com", Map.of("note", "a_b"));
        person("dan@example.com", Map.of("note", "axb"));
        assertThat(matching("{\"attr\":\"note\",\"contains\":\"50%\"}")).containsExactly("ann@example.com");
        assertThat(matching("{\"attr\":\"note\",\"contains\":\"SAVED\"}")).containsExactly("ann@example.com", "bob@example.com");
        assertThat(matching("{\"attr\":\"note\",\"contains\":\"a_b\"}")).containsExactly("cat@example.com");
    }

    @Test
    void in_matches_any_of_texts_and_numbers() throws Exception {
        person("ann@example.com", Map.of("country", "DE", "tier", 2));
        person("bob@example.com", Map.of("country", "AT", "tier", "3"));
        person("cat@example.com", Map.of("country", "FR", "tier", 4));
        assertThat(matching("{\"attr\":\"country\",\"in\":[\"DE\",\"AT\"]}")).containsExactly("ann@example.com", "bob@example.com");
        assertThat(matching("{\"attr\":\"tier\",\"in\":[3,4]}")).containsExactly("bob@example.com", "cat@example.com");
        assertThat(matching("{\"not\":{\"attr\":\"country\",\"in\":[\"DE\",\"AT\"]}}")).containsExactly("cat@example.com");
    }

    @Test
    void range_compares_numbers_and_numeric_texts_and_skips_words() throws Exception {
        person("ann@example.com", Map.of("score", 10));
        person("bob@example.com", Map.of("score", "25.5"));
        person("cat@example.com", Map.of("score", 100));
        person("dan@example.com", Map.of("score", "high"));
        assertThat(matching("{\"attr\":\"score\",\"range\":{\"gte\":10,\"lt\":100}}")).containsExactly("ann@example.com", "bob@example.com");
        assertThat(matching("{\"attr\":\"score\",\"range\":{\"gt\":10}}")).containsExactly("bob@example.com", "cat@example.com");
        assertThat(matching("{\"attr\":\"score\",\"range\":{\"lte\":0}}")).isEmpty();
    }

    @Test
    void exists_asks_whether_the_attribute_is_there() throws Exception {
        person("ann@example.com", Map.of("phone", "123"));
        person("bob@example.com", Map.of());
        assertThat(matching("{\"attr\":\"phone\",\"exists\":true}")).containsExactly("ann@example.com");
        assertThat(matching("{\"attr\":\"phone\",\"exists\":false}")).containsExactly("bob@example.com");
    }

    @Test
    void and_or_not_nest() throws Exception {
        person("ann@example.com", Map.of("plan", "pro", "country", "DE"));
        person("bob@example.com", Map.of("plan", "pro", "country", "US"));
        person("cat@example.com", Map.of("plan", "free", "country", "US"));
        person("dan@example.com", Map.of("plan", "team", "country", "FR"));
        assertThat(matching("""
                {"and":[{"or":[{"attr":"plan","eq":"pro"},{"attr":"plan","eq":"team"}]},
                        {"not":{"attr":"country","in":["DE","AT"]}}]}""")).containsExactly("bob@example.com", "dan@example.com");
    }

    @Test
    void list_membership_is_subscribed_by_default_and_any_status_when_named() throws Exception {
        lists.create(new Lists.NewList("customers", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
        lists.create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.DOUBLE));
        person("ann@example.com", Map.of(), "customers");
        person("bob@example.com", Map.of(), "customers", "news");
        person("cat@example.com", Map.of(), "news");
        person("dan@example.com", Map.of());
        sql("UPDATE subscription sub JOIN subscriber s ON s.id = sub.subscriber_id SET sub.status = 'unsubscribed' "
                + "WHERE s.email = 'ann@example.com'");
        assertThat(matching("{\"list\":\"Customers\"}")).containsExactly("bob@example.com");
        assertThat(matching("{\"list\":\"customers\",\"status\":\"unsubscribed\"}")).containsExactly("ann@example.com");
        assertThat(matching("{\"list\":\"customers\",\"status\":\"any\"}")).containsExactly("ann@example.com", "bob@example.com");
        assertThat(matching("{\"list\":\"news\",\"status\":\"unconfirmed\"}")).containsExactly("bob@example.com", "cat@example.com");
        assertThat(matching("{\"list\":\"news\",\"status\":\"confirmed\"}")).isEmpty();
    }

    @Test
    void the_subscribers_own_status_is_a_condition() throws Exception {
        person("ann@example.com", Map.of());
        person("bob@example.com", Map.of());
        subscribers.blocklist("bob@example.com", SubscriptionSource.OPERATOR);
        assertThat(matching("{\"status\":\"blocklisted\"}")).containsExactly("bob@example.com");
        assertThat(matching("{\"status\":\"enabled\"}")).containsExactly("ann@example.com");
    }

    @Test
    void engagement_counts_human_opens_and_clicks_within_the_window_the_clock_sets() throws Exception {
        person("ann@example.com", Map.of());
        person("Bob@example.com", Map.of());
        person("cat@example.com", Map.of());
        long first = CampaignFixtures.campaign(db.dataSource(), "first");
        long second = CampaignFixtures.campaign(db.dataSource(), "second");
        Instant now = clock.instant();
        tracked(first, recipient(first, "ann@example.com"), "click", "human", now.minus(Duration.ofDays(10)));
        // another letter case of Bob's address in the campaign's queue: the same person
        tracked(second, recipient(second, "bob@example.com"), "open", "human", now.minus(Duration.ofDays(100)));
        tracked(second, recipient(second, "cat@example.com"), "click", "scanner", now.minus(Duration.ofDays(1)));

        assertThat(matching("{\"engaged\":{\"kind\":\"click\",\"days\":90}}")).containsExactly("ann@example.com");
        assertThat(matching("{\"engaged\":{\"kind\":\"any\"}}")).containsExactly("ann@example.com", "Bob@example.com");
        assertThat(matching("{\"engaged\":{\"kind\":\"open\",\"campaign\":" + second + "}}")).containsExactly("Bob@example.com");
        assertThat(matching("{\"engaged\":{\"kind\":\"any\",\"campaign\":" + first + ",\"days\":5}}")).isEmpty();

        clock.advance(Duration.ofDays(81));
        assertThat(matching("{\"engaged\":{\"kind\":\"click\",\"days\":90}}")).isEmpty();
        assertThat(matching("{\"not\":{\"engaged\":{\"kind\":\"any\",\"days\":365}}}")).containsExactly("cat@example.com");
    }

    @Test
    void bounce_and_complaint_history_match_by_kind_and_window() throws Exception {
        person("ann@example.com", Map.of());
        person("bob@example.com", Map.of());
        person("cat@example.com", Map.of());
        long campaign = CampaignFixtures.campaign(db.dataSource(), "c");
        Instant now = clock.instant();
        for (String[] b : new String[][] {{"ann@example.com", "hard", "40"}, {"bob@example.com", "soft", "2"},
                {"cat@example.com", "complaint", "1"}}) {
            sql("INSERT INTO bounce_event (recipient_id, kind, campaign_id, address, status, created_at) VALUES (?, ?, ?, ?, '5.1.1', ?)",
                    recipient(campaign, b[0]), b[1], campaign, b[0], SqlTime.literal(now.minus(Duration.ofDays(Long.parseLong(b[2])))));
        }
        assertThat(matching("{\"bounced\":{\"kind\":\"hard\"}}")).containsExactly("ann@example.com");
        assertThat(matching("{\"bounced\":{\"kind\":\"any\"}}")).containsExactly("ann@example.com", "bob@example.com");
        assertThat(matching("{\"bounced\":{\"kind\":\"any\",\"days\":30}}")).containsExactly("bob@example.com");
        assertThat(matching("{\"complained\":{}}")).containsExactly("cat@example.com");
        assertThat(matching("{\"not\":{\"or\":[{\"bounced\":{\"kind\":\"any\"}},{\"complained\":{\"days\":7}}]}}")).isEmpty();
    }

    @Test
    void a_saved_segment_has_a_live_count_and_a_preview_of_its_first_rows_in_id_order() throws Exception {
        for (int i = 0; i < 5; i++) {
            person("p" + i + "@example.com", Map.of("plan", i % 2 == 0 ? "pro" : "free"));
        }
        SegmentTable.Stored s = segments.create(" pros ", "{ \"attr\" : \"plan\", \"eq\" : \"pro\" }");
        assertThat(s.name()).isEqualTo("pros");
        assertThat(s.filter()).isEqualTo("{\"attr\":\"plan\",\"eq\":\"pro\"}");
        assertThat(s.createdAt()).isEqualTo(clock.instant());
        assertThat(segments.count("PROS")).isEqualTo(3);
        List<SubscriberMatches.Match> first = segments.previewSegment("pros", 2);
        assertThat(first).extracting(SubscriberMatches.Match::email).containsExactly("p0@example.com", "p2@example.com");
        assertThat(first.get(0).name()).contains("p0");
        assertThat(first.get(0).status()).isEqualTo(SubscriberStatus.ENABLED);

        person("p9@example.com", Map.of("plan", "pro"));
        assertThat(segments.count("pros")).isEqualTo(4);
        assertThat(segments.countFilter("{\"attr\":\"plan\",\"eq\":\"free\"}")).isEqualTo(2);
    }

    @Test
    void segments_are_renamed_refiltered_listed_and_deleted_by_name() throws Exception {
        segments.create("b", "{\"status\":\"enabled\"}");
        segments.create("a", "{\"status\":\"blocklisted\"}");
        assertThatThrownBy(() -> segments.create("A", "{\"status\":\"enabled\"}")).isInstanceOf(InvalidFields.class)
                .hasMessage("name: a segment named 'A' exists already");
        clock.advance(Duration.ofMinutes(1));
        SegmentTable.Stored c = segments.update("b", Optional.of("c"), Optional.of("{\"attr\":\"x\",\"exists\":true}"));
        assertThat(c.filter()).isEqualTo("{\"attr\":\"x\",\"exists\":true}");
        assertThat(c.updatedAt()).isAfter(c.createdAt());
        assertThat(segments.list()).extracting(SegmentTable.Stored::name).containsExactly("a", "c");
        segments.delete("a");
        assertThat(segments.get("a")).isEmpty();
        assertThatThrownBy(() -> segments.delete("a")).isInstanceOf(InvalidFields.class).hasMessage("name: no segment named 'a'");
        assertThatThrownBy(() -> segments.count("zzz")).isInstanceOf(InvalidFields.class).hasMessage("name: no segment named 'zzz'");
    }

    @Test
    void an_unknown_list_is_refused_and_a_bad_filter_saves_nothing() throws Exception {
        assertThatThrownBy(() -> segments.create("s", "{\"list\":\"nope\"}")).isInstanceOf(InvalidFields.class)
                .hasMessage("filter.list: no list named 'nope'");
        assertThatThrownBy(() -> segments.create("s", "{\"attr\":\"\",\"eq\":1}")).isInstanceOf(InvalidFields.class)
                .hasMessage("filter.attr: a name must not be blank");
        assertThat(segments.list()).isEmpty();
    }

    @Test
    void a_deleted_list_leaves_its_segment_matching_nobody_on_it() throws Exception {
        lists.create(new Lists.NewList("customers", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
        person("ann@example.com", Map.of(), "customers");
        segments.create("customers", "{\"list\":\"customers\"}");
        lists.delete("customers");
        assertThat(segments.count("customers")).isZero();
    }

    @Test
    void an_injection_in_a_name_or_a_value_is_matched_literally_never_run() throws Exception {
        String evil = "a') OR 1=1 --";
        person("ann@example.com", Map.of(evil, "x'); DROP TABLE segment; --"));
        person("bob@example.com", Map.of("plan", "pro"));
        assertThat(matching("{\"attr\":\"a') OR 1=1 --\",\"exists\":true}")).containsExactly("ann@example.com");
        assertThat(matching("{\"attr\":\"a') OR 1=1 --\",\"eq\":\"x'); DROP TABLE segment; --\"}")).containsExactly("ann@example.com");
        assertThat(matching("{\"attr\":\"plan\",\"eq\":\"' OR '1'='1\"}")).isEmpty();
        assertThat(matching("{\"attr\":\"pl\\\"an\",\"contains\":\"\\\" OR 1=1\"}")).isEmpty();
        lists.create(new Lists.NewList("x' OR 1=1 --", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
        assertThat(matching("{\"list\":\"x' OR 1=1 --\"}")).isEmpty();
        assertThat(segments.list()).isEmpty(); // the segment table is still there
    }

    @Test
    void any_name_the_attribute_rule_allows_names_exactly_that_attribute() throws Exception {
        Map<String, String> odd = Map.of("a.b", "dot", "a*", "star", "q\"uote", "quote", "back\\slash", "backslash", "ü x", "space");
        person("ann@example.com", odd);
        person("bob@example.com", Map.of("a", Map.of("b", 1).toString(), "ab", "dot"));
        for (Map.Entry<String, String> e : odd.entrySet()) {
            String name = e.getKey().replace("\\", "\\\\").replace("\"", "\\\"");
            assertThat(matching("{\"attr\":\"" + name + "\",\"eq\":\"" + e.getValue() + "\"}")).as(e.getKey())
                    .containsExactly("ann@example.com");
            assertThat(matching("{\"attr\":\"" + name + "\",\"exists\":false}")).as(e.getKey()).containsExactly("bob@example.com");
        }
    }

    @Test
    void the_compiled_filter_is_a_where_clause_with_every_value_a_parameter() throws Exception {
        person("ann@example.com", Map.of("plan", "pro"));
        segments.create("pros", "{\"and\":[{\"attr\":\"plan\",\"eq\":\"pro\"},{\"engaged\":{\"kind\":\"any\",\"days\":30}}]}");
        CompiledFilter f = segments.compile("pros");
        assertThat(f.whereClause()).doesNotContain("pro'").doesNotContain("plan");
        assertThat(f.params()).contains("plan", "pro", SqlTime.literal(clock.instant().minus(Duration.ofDays(30))));
        List<String> emails = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT s.email FROM subscriber s WHERE s.status = ? AND " + f.whereClause())) {
            ps.setString(1, "enabled");
            f.bind(ps, 2);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    emails.add(rs.getString(1));
                }
            }
        }
        assertThat(emails).isEmpty();
    }

    @Test
    void the_table_keeps_the_filter_as_written_and_refuses_text_that_is_not_json() throws Exception {
        segments.create("s", "{\"attr\":\"zz\",\"eq\":\"x\"}");
        // as written, key order kept: a JSON column on MySQL would reorder the keys
        assertThat(segments.get("s").orElseThrow().filter()).isEqualTo("{\"attr\":\"zz\",\"eq\":\"x\"}");
        assertThatThrownBy(() -> sql("INSERT INTO segment (name, filter, created_at, updated_at) VALUES ('t', 'nope', "
                + "UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))")).isInstanceOf(java.sql.SQLException.class);
    }

    @Test
    void a_preview_limit_outside_one_to_a_hundred_is_refused() {
        assertThatThrownBy(() -> segments.preview("{\"status\":\"enabled\"}", 101)).isInstanceOf(InvalidFields.class)
                .hasMessage("limit: must be from 1 to 100");
    }
}
