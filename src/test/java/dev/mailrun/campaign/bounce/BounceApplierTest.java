package dev.mailrun.campaign.bounce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.unsubscribe.ReturnPaths;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.bounce.BounceKind;
import dev.mailrun.mail.bounce.BounceReport;
import dev.mailrun.testing.TestDatabase;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class BounceApplierTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant NOW = Instant.parse("2025-03-10T12:00:00Z");
    private final ReturnPaths returnPaths = new ReturnPaths(SigningKey.of("0123456789abcdef0123456789abcdef-test"));
    private final BounceApplier applier = new BounceApplier(returnPaths, new SuppressionTable(), BounceSettings.defaults());
    private final Rows rows = new Rows(db.dataSource());

    @BeforeEach
    void clean() throws Exception {
        rows.clear();
    }

    @Test
    void an_address_is_suppressed_at_its_third_soft_bounced_send_and_not_before() throws Exception {
        for (int i = 1; i <= 3; i++) {
            long campaign = rows.campaign("running");
            long recipient = rows.recipient(campaign, "Full.Box@example.net", "sent", null);
            List<BounceApplier.Applied> applied = apply(soft(returnPaths.token(campaign, recipient)));

            assertThat(applied).extracting(BounceApplier.Applied::effect).containsExactly(BounceApplier.Effect.SOFT);
            assertThat(rows.string("SELECT reason FROM suppression WHERE address = 'full.box@example.net'"))
                    .as("after soft bounce %d", i).isEqualTo(i < 3 ? null : "hard_bounce");
        }
        assertThat(rows.string("SELECT source FROM suppression")).startsWith("bounce:soft-limit 3 soft bounces");
    }

    @Test
    void repeated_delay_warnings_for_one_send_count_as_one_soft_bounce() throws Exception {
        long campaign = rows.campaign("running");
        long recipient = rows.recipient(campaign, "full.box@example.net", "sent", null);

        apply(soft(returnPaths.token(campaign, recipient)));
        List<BounceApplier.Applied> second = apply(soft(returnPaths.token(campaign, recipient)));
        apply(soft(returnPaths.token(campaign, recipient)));

        assertThat(second).extracting(BounceApplier.Applied::effect).containsExactly(BounceApplier.Effect.DUPLICATE);
        assertThat(rows.count("SELECT bounces FROM soft_bounce")).isEqualTo(1);
        assertThat(rows.count("SELECT COUNT(*) FROM suppression")).isZero();
    }

    @Test
    void a_hard_bounce_leaves_a_recipient_that_already_failed_or_was_suppressed_as_it_was() throws Exception {
        long campaign = rows.campaign("running");
        long failed = rows.recipient(campaign, "a@example.org", "failed", null, 421);
        long suppressed = rows.recipient(campaign, "b@example.org", "suppressed", null);

        apply(hard(returnPaths.token(campaign, failed)));
        apply(hard(returnPaths.token(campaign, suppressed)));

        assertThat(rows.string("SELECT CONCAT(status, ' ', last_code) FROM recipient WHERE id = ?", failed)).isEqualTo("failed 421");
        assertThat(rows.string("SELECT status FROM recipient WHERE id = ?", suppressed)).isEqualTo("suppressed");
        assertThat(rows.count("SELECT COUNT(*) FROM suppression")).isEqualTo(2);
    }

    @Test
    void a_refusal_fails_the_send_but_suppresses_nothing_and_leaves_the_hard_bounce_count_alone() throws Exception {
        long campaign = rows.campaign("running");
        long recipient = rows.recipient(campaign, "fine@example.org", "sent", null);
        BounceReport refused = new BounceReport(BounceKind.REFUSED, Optional.of("fine@example.org"), "5.7.1",
                OptionalInt.of(550), "550 5.7.1 client host blocked using zen.spamhaus.org", Optional.empty(),
                Optional.of(returnPaths.token(campaign, recipient)));

        List<BounceApplier.Applied> applied = apply(refused);
        List<BounceApplier.Applied> again = apply(refused);

        assertThat(applied).singleElement().satisfies(a -> {
            assertThat(a.effect()).isEqualTo(BounceApplier.Effect.REFUSED);
            assertThat(a.hardBouncedCampaign()).isEmpty();
        });
        assertThat(again).extracting(BounceApplier.Applied::effect).containsExactly(BounceApplier.Effect.DUPLICATE);
        assertThat(rows.string("SELECT CONCAT(status, ' ', last_code) FROM recipient WHERE id = ?", recipient)).isEqualTo("failed 550");
        assertThat(rows.count("SELECT COUNT(*) FROM suppression")).isZero();
        assertThat(rows.string("SELECT kind FROM bounce_event WHERE recipient_id = ?", recipient)).isEqualTo("refused");
    }

    @Test
    void a_token_for_a_recipient_of_another_campaign_does_not_match() throws Exception {
        long campaign = rows.campaign("running");
        long other = rows.campaign("running");
        long recipient = rows.recipient(campaign, "a@example.org", "sent", null);

        assertThat(apply(hard(returnPaths.token(other, recipient))))
                .extracting(BounceApplier.Applied::effect).containsExactly(BounceApplier.Effect.UNMATCHED);
    }

    @Test
    void a_bounce_of_a_test_send_changes_nothing_even_when_its_address_is_a_recipient() throws Exception {
        long campaign = rows.campaign("running");
        long recipient = rows.recipient(campaign, "tess@example.org", "sent", null);
        BounceReport bounce = new BounceReport(BounceKind.HARD, Optional.of("tess@example.org"), "5.1.1", OptionalInt.empty(),
                "user unknown", Optional.empty(), Optional.of(returnPaths.token(campaign, 0)));  // recipient 0: a test send

        assertThat(apply(bounce)).extracting(BounceApplier.Applied::effect).containsExactly(BounceApplier.Effect.UNMATCHED);
        assertThat(rows.string("SELECT status FROM recipient WHERE id = ?", recipient)).isEqualTo("sent");
        assertThat(rows.count("SELECT COUNT(*) FROM suppression")).isZero();
    }

    @Test
    void settings_reject_values_that_make_no_sense() {
        assertThatThrownBy(() -> new BounceSettings(0, 0.05, 100)).hasMessage("bounce.soft-limit must be at least 1, was 0");
        assertThatThrownBy(() -> new BounceSettings(3, 5, 100)).hasMessageStartingWith("bounce.pause-rate must be between 0 and 1");
        assertThatThrownBy(() -> new BounceSettings(3, 0.05, 0)).hasMessage("bounce.min-sample must be at least 1, was 0");
    }

    private List<BounceApplier.Applied> apply(BounceReport report) throws Exception {
        return Transactions.inTransaction(db.dataSource(), c -> applier.apply(c, List.of(report), NOW));
    }

    private static BounceReport soft(String token) {
        return new BounceReport(BounceKind.SOFT, Optional.of("full.box@example.net"), "4.2.2", OptionalInt.of(452),
                "452 4.2.2 Mailbox full", Optional.empty(), Optional.of(token));
    }

    private static BounceReport hard(String token) {
        return new BounceReport(BounceKind.HARD, Optional.empty(), "5.1.1", OptionalInt.empty(), "user unknown",
                Optional.empty(), Optional.of(token));
    }
}
