package dev.mailrun.campaign.bounce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberForm;
import dev.mailrun.campaign.audience.Subscribers;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.unsubscribe.ReturnPaths;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.bounce.BounceKind;
import dev.mailrun.mail.bounce.BounceReport;
import dev.mailrun.events.EventType;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.Subscribed;
import dev.mailrun.testing.TestDatabase;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A bounce or complaint that suppresses an address also blocklists the subscriber who has it, with a
 * line in its history; one that suppresses nothing leaves the subscriber as it was.
 */
class BlocklistOnBounceTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
    private final ReturnPaths returnPaths = new ReturnPaths(SigningKey.of("0123456789abcdef0123456789abcdef-test"));
    private final BounceApplier applier = new BounceApplier(returnPaths, new SuppressionTable(), BounceSettings.defaults());
    private final Rows rows = new Rows(db.dataSource());
    private final SettableClock clock = SettableClock.at("2026-11-24T10:00:00Z");
    private long campaign;

    @BeforeEach
    void subscriber() throws Exception {
        rows.clear();
        rows.execute("DELETE FROM subscriber");
        rows.execute("DELETE FROM subscriber_list");
        new Lists(db.dataSource(), clock).create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
        new Subscribers(db.dataSource(), clock, AddressFilter.none()).upsert(
                new SubscriberForm("ann@example.com", Optional.empty(), Optional.empty(), List.of("news")), SubscriptionSource.OPERATOR);
        campaign = rows.campaign("running");
    }

    @Test
    void a_hard_bounce_blocklists_the_subscriber_of_the_address() throws Exception {
        long recipient = rows.recipient(campaign, "Ann@example.com", "sent", null);

        apply(report(BounceKind.HARD, "5.1.1", recipient));

        assertThat(rows.string("SELECT status FROM subscriber WHERE email_key = 'ann@example.com'")).isEqualTo("blocklisted");
        assertThat(rows.string("SELECT reason FROM suppression WHERE address = 'ann@example.com'")).isEqualTo("hard_bounce");
        assertThat(rows.string("SELECT detail FROM subscriber_event WHERE kind = 'blocklisted'"))
                .isEqualTo("hard_bounce (bounce:campaign=" + campaign + " status=5.1.1)");
    }

    @Test
    void the_blocklisting_of_a_bounce_is_told_to_the_endpoints_as_subscriber_blocklisted() throws Exception {
        Subscribed.to(db.dataSource(), Set.of(EventType.SUBSCRIBER_BLOCKLISTED));
        rows.execute("DELETE FROM event_outbox WHERE type LIKE 'subscri%'");
        long recipient = rows.recipient(campaign, "Ann@example.com", "sent", null);

        apply(report(BounceKind.HARD, "5.1.1", recipient));

        assertThat(rows.string("SELECT CONCAT(email, ' ', data) FROM event_outbox WHERE type = 'subscriber.blocklisted'"))
                .endsWith("\"detail\":\"hard_bounce (bounce:campaign=" + campaign + " status=5.1.1)\"}").startsWith("ann@example.com {");
    }

    @Test
    void a_complaint_blocklists_the_subscriber_of_the_address() throws Exception {
        long recipient = rows.recipient(campaign, "ann@example.com", "sent", null);

        apply(report(BounceKind.COMPLAINT, "", recipient));

        assertThat(rows.string("SELECT status FROM subscriber WHERE email_key = 'ann@example.com'")).isEqualTo("blocklisted");
    }

    @Test
    void a_soft_bounce_below_the_limit_leaves_the_subscriber_enabled() throws Exception {
        long recipient = rows.recipient(campaign, "ann@example.com", "sent", null);

        apply(report(BounceKind.SOFT, "4.2.2", recipient));

        assertThat(rows.string("SELECT status FROM subscriber WHERE email_key = 'ann@example.com'")).isEqualTo("enabled");
        assertThat(rows.count("SELECT COUNT(*) FROM subscriber_event WHERE kind = 'blocklisted'")).isZero();
    }

    private void apply(BounceReport report) throws Exception {
        Transactions.inTransaction(db.dataSource(), c -> applier.apply(c, List.of(report), NOW));
    }

    private BounceReport report(BounceKind kind, String status, long recipient) {
        return new BounceReport(kind, Optional.empty(), status, OptionalInt.empty(), "report", Optional.empty(),
                Optional.of(returnPaths.token(campaign, recipient)));
    }
}
