package dev.mailrun.campaign.send;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.Outcome;
import dev.mailrun.campaign.store.RecipientTable;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.TestDatabase;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The run token fences a run's rows byte for byte (V12: ASCII, binary collation). */
class RunTokenTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private final RecipientTable queue = new RecipientTable(new SuppressionTable());
    private final Instant now = Instant.parse("2026-11-24T00:00:00Z");

    @Test
    void a_token_is_compared_byte_for_byte() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "token case");
        CampaignFixtures.recipients(db.dataSource(), id, 2);
        String run = "6a6b6c6d-aaaa-bbbb-cccc-ddddeeeeffff";
        RecipientTable.Claim claim = Transactions.inTransaction(db.dataSource(), c -> queue.claim(c, id, now, 10, List.of()));
        List<Long> ids = claim.recipients().stream().map(ClaimedRecipient::id).toList();
        int marked = Transactions.inTransaction(db.dataSource(), c -> queue.markSending(c, run, ids, now));
        assertThat(marked).isEqualTo(2);
        String other = run.toUpperCase(Locale.ROOT);
        List<Outcome> sent = ids.stream().<Outcome>map(r -> new Outcome.Sent(r, "<m" + r + "@x>", now)).toList();
        int byOther = Transactions.inTransaction(db.dataSource(), c -> queue.record(c, other, sent, now));
        assertThat(byOther).as("another run's token, whatever its letter case, holds nothing").isZero();
        int markedByOther = Transactions.inTransaction(db.dataSource(), c -> queue.markSending(c, other, ids, now));
        assertThat(markedByOther).as("nor can it mark rows this run marked").isZero();
        int byRun = Transactions.inTransaction(db.dataSource(), c -> queue.record(c, run, sent, now));
        assertThat(byRun).isEqualTo(2);
    }
}
