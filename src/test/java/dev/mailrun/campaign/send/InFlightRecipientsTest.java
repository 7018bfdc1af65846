package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.campaign.store.Outcome;
import dev.mailrun.campaign.store.recipient.RecipientClaims;
import dev.mailrun.campaign.store.recipient.RecipientCounts;
import dev.mailrun.campaign.store.recipient.RecipientResults;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.TestDatabase;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Neither a claim nor a mark writes a recipient's row, so the statements on the table must leave
 * out what the run holds, and what a run had in flight is found through its in-flight row.
 */
class InFlightRecipientsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");
    private final RecipientClaims claims = new RecipientClaims(new SuppressionTable());
    private final RecipientResults results = new RecipientResults();
    private final RecipientCounts recipientCounts = new RecipientCounts();
    private final InFlightTable inFlight = new InFlightTable();

    @Test
    void a_claim_never_returns_what_the_run_holds_and_the_rest_stays_in_the_queue() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "ahead");
        CampaignFixtures.recipients(db.dataSource(), id, 30);
        List<Long> batch = claim(id, 10, List.of());
        // The batch being sent (marked or not) and its results not yet written: the claim ahead skips all ten.
        List<Long> next = claim(id, 10, batch);
        assertThat(next).hasSize(10).doesNotContainAnyElementsOf(batch);
        // Four of the first batch recorded, six handed back unsent (a release writes nothing).
        List<Outcome> sent = batch.subList(0, 4).stream().<Outcome>map(r -> new Outcome.Sent(r, "<m" + r + "@x>", NOW)).toList();
        int recorded = Transactions.inTransaction(db.dataSource(), c -> results.record(c, id, sent, NOW));
        assertThat(recorded).isEqualTo(4);
        List<Long> rest = claim(id, 30, next);
        assertThat(rest).as("the six handed back are in the queue for a later claim, the four sent are not")
                .hasSize(16).containsAll(batch.subList(4, 10)).doesNotContainAnyElementsOf(next)
                .doesNotContainAnyElementsOf(batch.subList(0, 4));
    }

    @Test
    void what_a_dead_run_left_in_flight_becomes_unknown_and_what_it_had_not_marked_stays_queued() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "dead run");
        CampaignFixtures.recipients(db.dataSource(), id, 4);
        String dead = "11111111-1111-1111-1111-111111111111";
        List<Long> ids = claim(id, 10, List.of());
        assertThat(ids).hasSize(4);
        // Three marked: one of them recorded as sent, two handed to SMTP with no result yet.
        Transactions.inTransaction(db.dataSource(), c -> {
            inFlight.hold(c, id, dead, NOW);
            return inFlight.write(c, id, dead, new TreeSet<>(ids.subList(0, 3)), NOW);
        });
        Transactions.inTransaction(db.dataSource(), c -> results.record(c, id,
                List.of(new Outcome.Sent(ids.get(0), "<m@x>", NOW)), NOW));
        try (var c = db.dataSource().getConnection()) {
            Map<RecipientStatus, Long> counts = recipientCounts.counts(c, id, inFlight.ids(c, id));
            assertThat(counts.get(RecipientStatus.SENDING)).as("in flight and still waiting").isEqualTo(2);
            assertThat(counts.get(RecipientStatus.PENDING)).isEqualTo(1);
            assertThat(counts.get(RecipientStatus.SENT)).isEqualTo(1);
        }

        int unknown = Transactions.inTransaction(db.dataSource(), c -> {
            InFlightTable.Held held = inFlight.lock(c, id).orElseThrow();
            int n = results.markUnknown(c, id, held.recipientIds(), java.util.Optional.empty(), NOW);
            inFlight.release(c, id, NOW);
            return n;
        });

        assertThat(unknown).as("the recorded one keeps its result").isEqualTo(2);
        try (var c = db.dataSource().getConnection()) {
            Map<RecipientStatus, Long> counts = recipientCounts.counts(c, id, inFlight.ids(c, id));
            assertThat(counts.get(RecipientStatus.UNKNOWN)).isEqualTo(2);
            assertThat(counts.get(RecipientStatus.SENT)).isEqualTo(1);
            assertThat(counts.get(RecipientStatus.PENDING)).as("never marked: still in the queue").isEqualTo(1);
            assertThat(counts.get(RecipientStatus.SENDING)).isZero();
        }
        assertThat(claim(id, 10, List.of())).containsExactly(ids.get(3));
    }

    @Test
    void recipients_of_another_campaign_are_never_made_unknown() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "mine");
        long other = CampaignFixtures.campaign(db.dataSource(), "theirs");
        CampaignFixtures.recipients(db.dataSource(), other, 2);
        List<Long> theirs = claim(other, 2, List.of());
        int unknown = Transactions.inTransaction(db.dataSource(), c -> results.markUnknown(c, id, theirs, java.util.Optional.empty(), NOW));
        assertThat(unknown).isZero();
        assertThat(CampaignFixtures.recipientCount(db.dataSource(), other, "pending")).isEqualTo(2);
    }

    private List<Long> claim(long campaignId, int limit, List<Long> held) throws Exception {
        return Transactions.inTransaction(db.dataSource(), c -> claims.claim(c, campaignId, NOW, limit, held))
                .recipients().stream().map(ClaimedRecipient::id).toList();
    }
}
