package dev.mailrun.campaign.audience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.importing.RecipientRejectReason;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriberStatus;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.model.SubscriptionStatus;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.audience.SubscriptionTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link Subscribers} on the real database: upsert, read with history, search in keyset pages, blocklist, delete. */
class SubscribersTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-24T10:00:00Z");
    private final Lists lists = new Lists(db.dataSource(), clock);
    private final Subscribers subscribers = new Subscribers(db.dataSource(), clock, address -> address.localPart().equals("info")
            ? Optional.of(new AddressFilter.Rejection(RecipientRejectReason.ROLE_ADDRESS, "local part info names a role, not a person"))
            : Optional.empty());

    @BeforeEach
    void empty() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
            s.execute("DELETE FROM suppression");
        }
        lists.create(new Lists.NewList("news", Optional.empty(), ListVisibility.PUBLIC, ListOptIn.SINGLE));
        lists.create(new Lists.NewList("offers", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.DOUBLE));
    }

    private static SubscriberForm form(String email, String name, Map<String, ?> attributes, String... lists) {
        return new SubscriberForm(email, Optional.ofNullable(name), Optional.ofNullable(attributes), List.of(lists));
    }

    private Subscribers.Upserted upsert(SubscriberForm form) throws Exception {
        return subscribers.upsert(form, SubscriptionSource.OPERATOR);
    }

    @Test
    void an_address_is_stored_as_recipients_are_and_found_whatever_its_case() throws Exception {
        Subscribers.Upserted first = upsert(form("  Ann.Lee@Example.COM ", "Ann Lee", Map.of("plan", "pro", "seats", 3), "news"));
        assertThat(first.created()).isTrue();
        assertThat(first.subscriber().email()).as("local part as written, domain lower-cased").isEqualTo("Ann.Lee@example.com");
        assertThat(first.subscribedTo()).containsExactly("news");
        clock.advance(Duration.ofSeconds(5));
        Subscribers.Upserted again = upsert(form("ann.lee@EXAMPLE.com", null, null, "news", "offers"));
        assertThat(again.created()).isFalse();
        assertThat(again.subscriber().id()).isEqualTo(first.subscriber().id());
        assertThat(again.subscriber().name()).as("kept: not given").contains("Ann Lee");
        assertThat(again.subscriber().attributes().values()).isEqualTo(Map.of("plan", "pro", "seats", 3));
        assertThat(again.subscribedTo()).as("news kept as it was").containsExactly("offers");
        Subscribers.Detail d = subscribers.get("ANN.LEE@example.com").orElseThrow();
        assertThat(d.subscriptions()).extracting(SubscriptionTable.Stored::listName, SubscriptionTable.Stored::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("news", SubscriptionStatus.CONFIRMED),
                        org.assertj.core.groups.Tuple.tuple("offers", SubscriptionStatus.UNCONFIRMED));
        assertThat(d.history()).extracting(e -> e.kind() + " " + e.listName().orElse("-") + " " + e.at())
                .containsExactly("subscribed offers 2026-11-24T10:00:05Z", "subscribed news 2026-11-24T10:00:00Z",
                        "created - 2026-11-24T10:00:00Z");
        assertThat(count("SELECT COUNT(*) FROM subscriber")).isEqualTo(1);
    }

    @Test
    void given_name_and_attributes_replace_the_stored_ones_and_leave_an_updated_event() throws Exception {
        upsert(form("bob@example.com", "Bob", Map.of("a", "1", "b", "2")));
        clock.advance(Duration.ofMinutes(1));
        Subscribers.Upserted u = upsert(form("bob@example.com", "", Map.of("c", true)));
        assertThat(u.subscriber().name()).as("a blank name removes it").isEmpty();
        assertThat(u.subscriber().attributes().values()).isEqualTo(Map.of("c", true));
        assertThat(u.subscriber().updatedAt()).isEqualTo(Instant.parse("2026-11-24T10:01:00Z"));
        assertThat(subscribers.get("bob@example.com").orElseThrow().history().get(0).detail()).contains("name, attributes by operator");
        upsert(form("bob@example.com", null, Map.of("c", true)));
        assertThat(subscribers.get("bob@example.com").orElseThrow().history()).as("nothing changed: no event").hasSize(2);
    }

    @Test
    void attributes_out_of_bounds_are_refused_each_naming_the_attribute() {
        Map<String, Object> bad = new LinkedHashMap<>();
        bad.put("nested", Map.of("x", 1));
        bad.put("list", List.of(1, 2));
        bad.put("nothing", null);
        bad.put(" ", "blank name");
        bad.put("n".repeat(65), "long name");
        InvalidFields e = catchThrowableOfType(() -> upsert(form("cy@example.com", null, bad)), InvalidFields.class);
        assertThat(e.problems()).allSatisfy(p -> assertThat(p.field()).isEqualTo("attributes"));
        assertThat(e.problems()).extracting(InvalidFields.Problem::reason).containsExactly(
                "'nested': must be a string, a number or true/false, not an object",
                "'list': must be a string, a number or true/false, not an array",
                "'nothing': must be a string, a number or true/false, not null",
                "' ': a name must not be blank",
                "'" + "n".repeat(65) + "': a name is at most 64 characters");
        Map<String, Object> many = new LinkedHashMap<>();
        IntStream.range(0, 65).forEach(i -> many.put("k" + i, i));
        assertThatThrownBy(() -> upsert(form("cy@example.com", null, many))).isInstanceOf(InvalidFields.class)
                .hasMessage("attributes: has 65 names, more than the 64 allowed");
        assertThatThrownBy(() -> upsert(form("cy@example.com", null, Map.of("bio", "x".repeat(8200))))).isInstanceOf(InvalidFields.class)
                .hasMessage("attributes: take 8210 bytes as JSON, more than the 8192 allowed");
    }

    @Test
    void every_bad_value_of_an_upsert_is_named_at_once_and_nothing_is_stored() throws Exception {
        InvalidFields e = catchThrowableOfType(() -> upsert(form("not-an-address", "Line\nbreak", Map.of(), "news", "nope")),
                InvalidFields.class);
        assertThat(e.problems()).extracting(InvalidFields.Problem::field).containsExactly("email", "name", "lists");
        assertThat(e.getMessage()).contains("lists: 'nope': no such list");
        assertThat(count("SELECT COUNT(*) FROM subscriber")).isZero();
    }

    @Test
    void a_suppressed_address_and_one_the_address_filter_refuses_are_refused_as_the_import_rejects_them() throws Exception {
        Transactions.inTransaction(db.dataSource(), c -> new SuppressionTable().add(c,
                List.of(new SuppressionTable.Entry("gone@example.com", SuppressionReason.MANUAL, "test")), clock.instant()));
        assertThatThrownBy(() -> upsert(form("Gone@example.com", null, null))).isInstanceOf(InvalidFields.class)
                .hasMessage("email: gone@example.com is on the suppression list");
        assertThatThrownBy(() -> upsert(form("info@example.com", null, null))).isInstanceOf(InvalidFields.class)
                .hasMessage("email: local part info names a role, not a person");
    }

    @Test
    void search_pages_by_id_after_the_last_one_and_filters_by_prefix_list_and_status() throws Exception {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            ids.add(upsert(form("p" + i + "@example.com", null, null, i % 2 == 0 ? "news" : "offers")).subscriber().id());
        }
        upsert(form("q_1@example.com", null, null));
        Subscribers.Page first = subscribers.search(new SubscriberSearch(Optional.of("P"), Optional.empty(), Optional.empty(), 3, 0));
        assertThat(first.rows()).extracting(Subscriber::id).containsExactlyElementsOf(ids.subList(0, 3));
        assertThat(first.next()).contains(ids.get(2));
        Subscribers.Page last = subscribers.search(new SubscriberSearch(Optional.of("p"), Optional.empty(), Optional.empty(), 4,
                first.next().get()));
        assertThat(last.rows()).extracting(Subscriber::id).containsExactlyElementsOf(ids.subList(3, 7));
        assertThat(last.next()).as("the last page").isEmpty();
        assertThat(subscribers.search(new SubscriberSearch(Optional.empty(), Optional.of("news"), Optional.empty(), 50, 0)).rows())
                .extracting(Subscriber::email).containsExactly("p0@example.com", "p2@example.com", "p4@example.com", "p6@example.com");
        assertThat(subscribers.search(new SubscriberSearch(Optional.empty(), Optional.of("offers"), Optional.of("unconfirmed"), 50, 0))
                .rows()).hasSize(3);
        assertThat(subscribers.search(new SubscriberSearch(Optional.of("q_"), Optional.empty(), Optional.empty(), 50, 0)).rows())
                .as("an underscore is a letter, not a wildcard").extracting(Subscriber::email).containsExactly("q_1@example.com");
        subscribers.blocklist("p1@example.com", SubscriptionSource.OPERATOR);
        assertThat(subscribers.search(new SubscriberSearch(Optional.empty(), Optional.empty(), Optional.of("blocklisted"), 50, 0))
                .rows()).extracting(Subscriber::email).containsExactly("p1@example.com");
    }

    @Test
    void bad_search_values_are_named_each_by_its_field() {
        InvalidFields e = catchThrowableOfType(() -> subscribers.search(new SubscriberSearch(Optional.empty(), Optional.of("nope"),
                Optional.of("gone"), 0, -1)), InvalidFields.class);
        assertThat(e.problems()).extracting(InvalidFields.Problem::field).containsExactly("list", "status", "limit", "after");
        assertThatThrownBy(() -> subscribers.search(new SubscriberSearch(Optional.empty(), Optional.empty(), Optional.of("confirmed"),
                10, 0))).isInstanceOf(InvalidFields.class)
                .hasMessage("status: 'confirmed' is the status of a subscription: name its list too");
    }

    @Test
    void blocklisting_unsubscribes_from_every_list_and_refuses_new_lists() throws Exception {
        upsert(form("dee@example.com", null, null, "news", "offers"));
        clock.advance(Duration.ofMinutes(1));
        Subscribers.Blocklisted b = subscribers.blocklist("DEE@example.com", SubscriptionSource.OPERATOR);
        assertThat(b.changed()).isTrue();
        assertThat(b.unsubscribed()).isEqualTo(2);
        assertThat(b.subscriber().status()).isEqualTo(SubscriberStatus.BLOCKLISTED);
        Subscribers.Detail d = subscribers.get("dee@example.com").orElseThrow();
        assertThat(d.subscriptions()).extracting(SubscriptionTable.Stored::status).containsOnly(SubscriptionStatus.UNSUBSCRIBED);
        assertThat(d.history()).extracting(e -> e.kind()).startsWith("blocklisted", "unsubscribed", "unsubscribed");
        assertThat(subscribers.blocklist("dee@example.com", SubscriptionSource.OPERATOR).changed()).as("already").isFalse();
        assertThatThrownBy(() -> upsert(form("dee@example.com", null, null, "news"))).isInstanceOf(InvalidFields.class)
                .hasMessage("lists: dee@example.com is blocklisted, and a blocklisted subscriber is on no list");
        Subscribers.Blocklisted added = subscribers.blocklist("new@example.com", SubscriptionSource.OPERATOR);
        assertThat(added.added()).isTrue();
        assertThat(added.subscriber().status()).isEqualTo(SubscriberStatus.BLOCKLISTED);
    }

    @Test
    void deleting_a_subscriber_deletes_its_subscriptions_and_history() throws Exception {
        upsert(form("eve@example.com", null, null, "news"));
        assertThat(subscribers.delete("Eve@example.com")).isTrue();
        assertThat(subscribers.get("eve@example.com")).isEmpty();
        assertThat(count("SELECT COUNT(*) FROM subscription")).isZero();
        assertThat(count("SELECT COUNT(*) FROM subscriber_event")).isZero();
        assertThat(subscribers.delete("eve@example.com")).isFalse();
        assertThatThrownBy(() -> subscribers.delete("eve")).isInstanceOf(InvalidFields.class).hasMessageStartingWith("email: ");
    }

    private static long count(String sql) throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
