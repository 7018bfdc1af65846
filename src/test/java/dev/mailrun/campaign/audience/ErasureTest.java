package dev.mailrun.campaign.audience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.testing.PersonEverywhere;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.Subscribed;
import dev.mailrun.testing.TestDatabase;
import java.security.SecureRandom;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Erasure on the real database: nothing of the person is left in any table, the campaigns' counts stay, the address stays out. */
class ErasureTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-12-01T10:00:00Z");
    private final Erasure erasure = new Erasure(db.dataSource(), clock, new SecureRandom());
    private PersonEverywhere person;

    @BeforeEach
    void person() throws Exception {
        Subscribed.toEverything(db.dataSource());
        person = PersonEverywhere.make(db.dataSource(), clock);
    }

    @Test
    void the_fixture_puts_the_person_in_every_table_that_can_hold_them() throws Exception {
        assertThat(PersonEverywhere.holding(db.dataSource(), PersonEverywhere.KEY)).contains("subscriber.email", "recipient.email",
                "recipient.last_error", "bounce_event.address", "bounce_event.diagnostic", "soft_bounce.address",
                "suppression_removal.address", "event_outbox.email", "api_audit.target", "api_audit.detail", "api_idempotency.body");
        assertThat(PersonEverywhere.holding(db.dataSource(), PersonEverywhere.NAME)).contains("subscriber.name", "recipient.name");
        assertThat(PersonEverywhere.holding(db.dataSource(), PersonEverywhere.ATTRIBUTE)).contains("subscriber.attribs", "recipient.fields");
    }

    @Test
    void erasing_leaves_no_address_name_or_attribute_in_any_table_and_keeps_the_campaigns_counts() throws Exception {
        List<String> countsBefore = counts();
        long subscriberId = PersonEverywhere.one(db.dataSource(), "SELECT id FROM subscriber WHERE email_key = '" + PersonEverywhere.KEY + "'");

        Erasure.Erased erased = erasure.erase("ZELDA.erase@example.org", Erasure.Via.CLI, "ops");

        assertThat(erased).isEqualTo(new Erasure.Erased(Optional.of(subscriberId), 1, 2));
        assertThat(PersonEverywhere.holding(db.dataSource(), PersonEverywhere.KEY)).isEmpty();
        assertThat(PersonEverywhere.holding(db.dataSource(), PersonEverywhere.NAME)).isEmpty();
        assertThat(PersonEverywhere.holding(db.dataSource(), PersonEverywhere.ATTRIBUTE)).isEmpty();
        assertThat(counts()).isEqualTo(countsBefore);
        assertThat(PersonEverywhere.one(db.dataSource(), "SELECT COUNT(*) FROM recipient WHERE campaign_id = " + person.campaign)).isEqualTo(2);
        assertThat(PersonEverywhere.rows(db.dataSource(), "SELECT email FROM recipient WHERE campaign_id = " + person.campaign + " ORDER BY email"))
                .containsExactly("erased-" + PersonEverywhere.one(db.dataSource(), "SELECT MIN(id) FROM recipient WHERE campaign_id = "
                        + person.campaign) + "@erased.invalid", "other@example.org");
        assertThat(PersonEverywhere.one(db.dataSource(), "SELECT COUNT(*) FROM subscriber_event WHERE subscriber_id = " + subscriberId)).isZero();
        assertThat(PersonEverywhere.one(db.dataSource(), "SELECT COUNT(*) FROM subscription WHERE subscriber_id = " + subscriberId)).isZero();
        assertThat(PersonEverywhere.rows(db.dataSource(), "SELECT CONCAT(via, ' ', actor, ' ', subscriber_id, ' ', recipients, ' ', tracking)"
                + " FROM erasure_audit ORDER BY id DESC LIMIT 1")).containsExactly("cli ops " + subscriberId + " 1 2");
        assertThat(PersonEverywhere.rows(db.dataSource(), "SELECT data FROM event_outbox WHERE type = 'subscriber.erased' ORDER BY seq DESC LIMIT 1"))
                .containsExactly("{\"subscriber_id\":" + subscriberId + ",\"via\":\"cli\"}");
    }

    @Test
    void an_erased_address_is_refused_by_a_later_add_and_counted_suppressed_by_the_import_and_claim_check() throws Exception {
        erasure.erase(PersonEverywhere.EMAIL, Erasure.Via.CLI, "ops");
        Subscribers subscribers = new Subscribers(db.dataSource(), clock, AddressFilter.none());

        assertThatThrownBy(() -> subscribers.upsert(new SubscriberForm("zelda.ERASE@example.org", Optional.empty(), Optional.empty(),
                List.of("news")), SubscriptionSource.FORM))
                .isInstanceOf(InvalidFields.class).hasMessageContaining("email");
        try (Connection c = db.dataSource().getConnection()) {
            assertThat(new SuppressionTable().suppressedAmong(c, List.of(PersonEverywhere.KEY, "other@example.org", "erased-5@erased.invalid")))
                    .containsExactlyInAnyOrder(PersonEverywhere.KEY, "erased-5@erased.invalid");
        }
        assertThat(PersonEverywhere.holding(db.dataSource(), PersonEverywhere.KEY)).isEmpty();
    }

    @Test
    void an_address_that_is_no_subscriber_is_still_kept_out_and_a_second_erasure_changes_nothing_more() throws Exception {
        Erasure.Erased first = erasure.erase("never@example.org", Erasure.Via.API, "api:ci");
        Erasure.Erased again = erasure.erase(PersonEverywhere.EMAIL, Erasure.Via.CLI, "ops");
        Erasure.Erased twice = erasure.erase(PersonEverywhere.EMAIL, Erasure.Via.CLI, "ops");

        assertThat(first).isEqualTo(new Erasure.Erased(Optional.empty(), 0, 0));
        assertThat(again.recipients()).isEqualTo(1);
        assertThat(twice).isEqualTo(new Erasure.Erased(Optional.empty(), 0, 0));
        try (Connection c = db.dataSource().getConnection()) {
            assertThat(new SuppressionTable().isSuppressed(c, "never@example.org")).isTrue();
        }
        assertThat(PersonEverywhere.one(db.dataSource(), "SELECT COUNT(*) FROM erasure_key")).isEqualTo(1);
    }

    @Test
    void a_subscriber_is_erased_by_id_and_an_unknown_id_or_a_bad_address_changes_nothing() throws Exception {
        long id = PersonEverywhere.one(db.dataSource(), "SELECT id FROM subscriber WHERE email_key = '" + PersonEverywhere.KEY + "'");

        assertThat(erasure.eraseSubscriber(id + 1000, Erasure.Via.API, "api:ci")).isEmpty();
        assertThatThrownBy(() -> erasure.erase("not an address", Erasure.Via.CLI, "ops")).isInstanceOf(CampaignException.class);
        assertThat(PersonEverywhere.holding(db.dataSource(), PersonEverywhere.KEY)).isNotEmpty();
        assertThat(erasure.eraseSubscriber(id, Erasure.Via.API, "api:ci")).map(Erasure.Erased::recipients).hasValue(1);
        assertThat(PersonEverywhere.holding(db.dataSource(), PersonEverywhere.KEY)).isEmpty();
    }

    private List<String> counts() throws Exception {
        return PersonEverywhere.rows(db.dataSource(), "SELECT CONCAT(status, ' ', relay, ' ', n) FROM campaign_status_count WHERE campaign_id = "
                + person.campaign + " ORDER BY status, relay");
    }
}
