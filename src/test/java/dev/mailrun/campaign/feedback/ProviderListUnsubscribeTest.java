package dev.mailrun.campaign.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberForm;
import dev.mailrun.campaign.audience.Subscribers;
import dev.mailrun.campaign.bounce.BounceRateBreaker;
import dev.mailrun.campaign.bounce.BounceSettings;
import dev.mailrun.campaign.bounce.ComplaintRateBreaker;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.audience.CampaignListTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.feedback.FeedbackEvent;
import dev.mailrun.mail.feedback.FeedbackEvent.Kind;
import dev.mailrun.mail.feedback.Provider;
import dev.mailrun.mail.feedback.SendIds;
import dev.mailrun.mail.feedback.Verdict;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A provider's unsubscribe event (its webhook) for a message of a list campaign does what the one-click
 * link does: the person leaves the campaign's lists, and the address is not suppressed.
 */
class ProviderListUnsubscribeTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final SettableClock clock = SettableClock.at("2026-11-24T10:00:00Z");
    private final BounceSettings settings = new BounceSettings(3, 0.05, 10, 0.003);
    private final FeedbackProcessor processor = new FeedbackProcessor(db.dataSource(),
            new FeedbackApplier(new SuppressionTable(), settings), new BounceRateBreaker(db.dataSource(), settings, clock),
            new ComplaintRateBreaker(db.dataSource(), settings, clock), clock);
    private long campaign;
    private long recipient;

    @BeforeEach
    void setUp() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DELETE FROM campaign_list");
            s.execute("DELETE FROM subscriber");
            s.execute("DELETE FROM subscriber_list");
            s.execute("DELETE FROM suppression");
        }
        Lists lists = new Lists(db.dataSource(), clock);
        long news = lists.create(new Lists.NewList("news", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE)).id();
        lists.create(new Lists.NewList("offers", Optional.empty(), ListVisibility.PRIVATE, ListOptIn.SINGLE));
        new Subscribers(db.dataSource(), clock, AddressFilter.none()).upsert(new SubscriberForm("ann@example.com", Optional.empty(),
                Optional.empty(), List.of("news", "offers")), SubscriptionSource.OPERATOR);
        campaign = CampaignFixtures.campaign(db.dataSource(), "To news");
        recipient = Transactions.inTransaction(db.dataSource(), c -> {
            new CampaignListTable().set(c, campaign, List.of(news));
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO recipient (campaign_id, email, status, updated_at) VALUES (" + campaign
                        + ", 'ann@example.com', 'sent', UTC_TIMESTAMP(3))", Statement.RETURN_GENERATED_KEYS);
                try (ResultSet keys = s.getGeneratedKeys()) {
                    keys.next();
                    return keys.getLong(1);
                }
            }
        });
    }

    @Test
    void a_webhook_unsubscribe_of_a_list_campaigns_message_leaves_its_lists_and_suppresses_nothing() throws Exception {
        FeedbackEvent unsubscribe = new FeedbackEvent(Provider.POSTMARK, "id:1", Kind.UNSUBSCRIBE, "Ann@example.com",
                Optional.of(new SendIds(campaign, recipient)), Optional.empty(), "", OptionalInt.empty(), "test unsubscribe");

        FeedbackSummary summary = processor.apply(Provider.POSTMARK, Verdict.Accepted.of(List.of(unsubscribe)));

        assertThat(summary.count(FeedbackApplier.Effect.UNSUBSCRIBED)).isEqualTo(1);
        assertThat(rows("SELECT CONCAT(l.name, ' ', m.status) FROM subscription m JOIN subscriber_list l ON l.id = m.list_id"
                + " ORDER BY l.name")).containsExactly("news unsubscribed", "offers confirmed");
        assertThat(rows("SELECT COUNT(*) FROM suppression")).containsExactly("0");
        assertThat(rows("SELECT detail FROM subscriber_event WHERE kind = 'unsubscribed'"))
                .containsExactly("provider postmark from campaign " + campaign);
    }

    private static List<String> rows(String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
