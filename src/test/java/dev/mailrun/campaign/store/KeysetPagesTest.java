package dev.mailrun.campaign.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.CampaignTransition;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.TestDatabase;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The campaign and suppression lists the API pages through: filtered in SQL, every page full while
 * matching rows remain, and stable under inserts — a row added meanwhile is never on a page already
 * read and never shifts one still to come.
 */
class KeysetPagesTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant T0 = Instant.parse("2026-11-26T08:00:00Z");
    private final CampaignTable campaigns = new CampaignTable();
    private final SuppressionTable suppressions = new SuppressionTable();

    @Test
    void campaign_pages_by_status_and_creation_time_are_full_and_stable_while_campaigns_are_created() throws Exception {
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            long id = campaign("c" + i, T0.plusSeconds(60L * i));
            // Every third one scheduled; the first two too old for the filter.
            if (i % 3 == 0) {
                Transactions.inTransaction(db.dataSource(), c -> campaigns.transition(c, id, CampaignTransition.SCHEDULE, null, T0));
            } else if (i >= 2) {
                expected.add(id);
            }
        }
        Optional<CampaignStatus> draft = Optional.of(CampaignStatus.DRAFT);
        Optional<Instant> since = Optional.of(T0.plusSeconds(120));
        List<Long> seen = new ArrayList<>();
        long after = 0;
        while (true) {
            long cursor = after;
            List<Campaign> page = Transactions.inTransaction(db.dataSource(), c -> campaigns.page(c, draft, since, cursor, 3));
            if (page.isEmpty()) {
                break;
            }
            assertThat(page).allSatisfy(p -> {
                assertThat(p.status()).isEqualTo(CampaignStatus.DRAFT);
                assertThat(p.createdAt()).isAfterOrEqualTo(since.get());
            });
            page.forEach(p -> seen.add(p.id()));
            if (seen.size() == 3) {
                // Created meanwhile: it matches and comes after every id read so far.
                expected.add(campaign("late", T0.plusSeconds(3_600)));
            }
            after = page.get(page.size() - 1).id();
        }
        assertThat(seen).containsExactlyElementsOf(expected).doesNotHaveDuplicates();
    }

    @Test
    void suppression_pages_by_reason_and_time_are_stable_while_addresses_are_added() throws Exception {
        add("b@x.example", SuppressionReason.MANUAL, T0);
        add("d@x.example", SuppressionReason.COMPLAINT, T0);
        add("f@x.example", SuppressionReason.MANUAL, T0);
        add("h@x.example", SuppressionReason.MANUAL, T0.minusSeconds(3_600));
        add("j@x.example", SuppressionReason.MANUAL, T0);
        SuppressionTable.Filter manualSince = new SuppressionTable.Filter(Optional.of(SuppressionReason.MANUAL), Optional.of(T0));

        List<SuppressionTable.Stored> first = Transactions.inTransaction(db.dataSource(), c -> suppressions.page(c, manualSince, "", 2));
        assertThat(first).extracting(SuppressionTable.Stored::address).containsExactly("b@x.example", "f@x.example");
        // Added meanwhile: one before the cursor (never shown), one after it (on the next page).
        add("a@x.example", SuppressionReason.MANUAL, T0);
        add("g@x.example", SuppressionReason.MANUAL, T0);
        List<SuppressionTable.Stored> rest = Transactions.inTransaction(db.dataSource(),
                c -> suppressions.page(c, manualSince, "f@x.example", 10));
        assertThat(rest).extracting(SuppressionTable.Stored::address).containsExactly("g@x.example", "j@x.example");
    }

    private long campaign(String name, Instant createdAt) throws SQLException {
        return Transactions.inTransaction(db.dataSource(), c -> campaigns.insert(c, new NewCampaign(name, "welcome",
                "news@sender.example", Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()),
                createdAt));
    }

    private void add(String address, SuppressionReason reason, Instant at) throws SQLException {
        Transactions.inTransaction(db.dataSource(), c -> suppressions.add(c, List.of(new SuppressionTable.Entry(address, reason, "test")), at));
    }
}
