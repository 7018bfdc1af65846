package dev.mailrun.campaign.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.db.Transactions;
import dev.mailrun.testing.CampaignFixtures;
import dev.mailrun.testing.TestDatabase;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The in-flight row: held by one run at a time, written only by that run, its token compared byte for byte. */
class InFlightTableTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant NOW = Instant.parse("2026-11-24T00:00:00Z");
    private final InFlightTable table = new InFlightTable();

    @Test
    void only_the_run_holding_the_row_writes_it_and_a_token_in_another_letter_case_is_another_run() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "in flight");
        String run = "6a6b6c6d-aaaa-bbbb-cccc-ddddeeeeffff";
        assertThat(write(id, run, ids(1, 2)))
                .as("no row yet: nothing is written").isFalse();
        Transactions.inTransaction(db.dataSource(), c -> {
            table.hold(c, id, run, NOW);
            return null;
        });
        assertThat(write(id, run, ids(3, 1, 20_000_000_000L))).isTrue();
        String other = run.toUpperCase(Locale.ROOT);
        assertThat(write(id, other, ids(9))).isFalse();

        Optional<InFlightTable.Held> held = Transactions.inTransaction(db.dataSource(), c -> table.lock(c, id));
        assertThat(held).isPresent();
        assertThat(held.get().runToken()).contains(run);
        assertThat(held.get().recipientIds()).containsExactly(1L, 3L, 20_000_000_000L);
        try (var c = db.dataSource().getConnection()) {
            assertThat(table.ids(c, id)).containsExactly(1L, 3L, 20_000_000_000L);
        }
    }

    @Test
    void a_row_handed_to_the_next_run_holds_nothing_and_the_old_run_can_no_longer_write_it() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "handed over");
        String dead = "11111111-1111-1111-1111-111111111111";
        String next = "22222222-2222-2222-2222-222222222222";
        Transactions.inTransaction(db.dataSource(), c -> {
            table.hold(c, id, dead, NOW);
            return table.write(c, id, dead, ids(5, 6), NOW);
        });
        Transactions.inTransaction(db.dataSource(), c -> {
            table.release(c, id, NOW);
            return null;
        });
        InFlightTable.Held released = Transactions.inTransaction(db.dataSource(), c -> table.lock(c, id)).orElseThrow();
        assertThat(released.runToken()).isEmpty();
        assertThat(released.recipientIds()).isEmpty();

        Transactions.inTransaction(db.dataSource(), c -> {
            table.hold(c, id, next, NOW);
            return null;
        });
        assertThat(write(id, dead, ids(7))).isFalse();
        InFlightTable.Held after = Transactions.inTransaction(db.dataSource(), c -> table.lock(c, id)).orElseThrow();
        assertThat(after.recipientIds()).isEmpty();
    }

    @Test
    void a_campaign_without_a_row_has_nothing_in_flight() throws Exception {
        long id = CampaignFixtures.campaign(db.dataSource(), "never sent");
        Optional<InFlightTable.Held> none = Transactions.inTransaction(db.dataSource(), c -> table.lock(c, id));
        assertThat(none).isEmpty();
        try (var c = db.dataSource().getConnection()) {
            assertThat(table.ids(c, id)).isEmpty();
        }
    }

    private boolean write(long campaignId, String run, SortedSet<Long> ids) throws Exception {
        boolean written = Transactions.inTransaction(db.dataSource(), c -> table.write(c, campaignId, run, ids, NOW));
        return written;
    }

    private static SortedSet<Long> ids(long... ids) {
        SortedSet<Long> set = new TreeSet<>();
        for (long id : ids) {
            set.add(id);
        }
        return set;
    }
}
