package dev.mailrun.campaign.audience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.model.SubscriptionStatus;
import dev.mailrun.campaign.store.audience.SubscriberListTable;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link Lists} on the real database: create, list with counts, change, delete. */
class ListsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-24T10:00:00Z");
    private final Lists lists = new Lists(db.dataSource(), clock);
    private final Subscribers subscribers = new Subscribers(db.dataSource(), clock, AddressFilter.none());

    @BeforeEach
    void empty() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
        }
    }

    private static Lists.NewList list(String name) {
        return new Lists.NewList(name, Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE);
    }

    @Test
    void a_list_is_created_with_its_values_and_the_clocks_time() throws Exception {
        SubscriberListTable.Stored l = lists.create(new Lists.NewList("  News  ", Optional.of("Weekly news"), ListVisibility.PUBLIC,
                ListOptIn.DOUBLE));
        assertThat(l.name()).isEqualTo("News");
        assertThat(l.description()).contains("Weekly news");
        assertThat(l.visibility()).isEqualTo(ListVisibility.PUBLIC);
        assertThat(l.optIn()).isEqualTo(ListOptIn.DOUBLE);
        assertThat(l.createdAt()).isEqualTo(Instant.parse("2026-11-24T10:00:00Z"));
    }

    @Test
    void a_name_taken_in_any_letter_case_is_refused_naming_the_field() throws Exception {
        lists.create(list("News"));
        assertThatThrownBy(() -> lists.create(list("news"))).isInstanceOf(InvalidFields.class)
                .hasMessage("name: a list named 'news' exists already");
    }

    @Test
    void a_blank_name_and_a_description_of_two_lines_are_refused_together() {
        InvalidFields e = (InvalidFields) org.assertj.core.api.Assertions.catchThrowable(() -> lists.create(
                new Lists.NewList(" ", Optional.of("one\ntwo"), ListVisibility.PRIVATE, ListOptIn.SINGLE)));
        assertThat(e.problems()).extracting(InvalidFields.Problem::field).containsExactlyInAnyOrder("name", "description");
    }

    @Test
    void lists_come_by_name_with_their_counts_per_status() throws Exception {
        lists.create(list("b-list"));
        lists.create(new Lists.NewList("a-list", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.DOUBLE));
        subscribers.upsert(new SubscriberForm("ann@example.com", Optional.empty(), Optional.empty(), List.of("a-list", "b-list")),
                SubscriptionSource.OPERATOR);
        subscribers.upsert(new SubscriberForm("bob@example.com", Optional.empty(), Optional.empty(), List.of("b-list")),
                SubscriptionSource.OPERATOR);
        List<Lists.Summary> all = lists.list();
        assertThat(all).extracting(s -> s.list().name()).containsExactly("a-list", "b-list");
        assertThat(all.get(0).counts()).isEqualTo(Map.of(SubscriptionStatus.UNCONFIRMED, 1L, SubscriptionStatus.CONFIRMED, 0L,
                SubscriptionStatus.UNSUBSCRIBED, 0L));
        assertThat(all.get(1).counts()).containsEntry(SubscriptionStatus.CONFIRMED, 2L);
    }

    @Test
    void a_list_is_renamed_and_changed_and_an_unknown_one_named() throws Exception {
        lists.create(list("news"));
        clock.advance(Duration.ofMinutes(1));
        SubscriberListTable.Stored l = lists.update("NEWS", new Lists.Changes(Optional.of("letters"), Optional.of(""),
                Optional.of(ListVisibility.PUBLIC), Optional.empty()));
        assertThat(l.name()).isEqualTo("letters");
        assertThat(l.description()).isEmpty();
        assertThat(l.visibility()).isEqualTo(ListVisibility.PUBLIC);
        assertThat(l.optIn()).isEqualTo(ListOptIn.SINGLE);
        assertThat(l.updatedAt()).isEqualTo(Instant.parse("2026-11-24T10:01:00Z"));
        assertThatThrownBy(() -> lists.update("news", new Lists.Changes(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty()))).isInstanceOf(InvalidFields.class).hasMessage("name: no list named 'news'");
    }

    @Test
    void deleting_a_list_removes_its_subscriptions_and_keeps_its_subscribers() throws Exception {
        lists.create(list("news"));
        subscribers.upsert(new SubscriberForm("ann@example.com", Optional.empty(), Optional.empty(), List.of("news")),
                SubscriptionSource.OPERATOR);
        assertThat(lists.delete("news")).isEqualTo(1);
        assertThat(lists.find("news")).isEmpty();
        Subscribers.Detail ann = subscribers.get("ann@example.com").orElseThrow();
        assertThat(ann.subscriptions()).isEmpty();
        assertThat(ann.history()).extracting(e -> e.kind()).containsExactly("subscribed", "created");
        assertThat(ann.history().get(0).listName()).as("the list is gone; its event stays").isEmpty();
        assertThatThrownBy(() -> lists.delete("news")).isInstanceOf(InvalidFields.class).hasMessage("name: no list named 'news'");
    }
}
