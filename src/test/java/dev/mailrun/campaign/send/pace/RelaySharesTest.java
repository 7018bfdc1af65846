package dev.mailrun.campaign.send.pace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.store.RelayShareTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RelaySharesTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static double share(double relayRate, int holders, int rank) {
        return RelayRate.shareOf(relayRate, new RelayShareTable.Holders(holders, rank), 0);
    }

    @Test
    void the_holders_windows_add_up_to_the_relays_rate_not_one_more_per_holder() {
        for (double rate : new double[] {50, 12.5, 7, 1000, 999.9, 4}) {
            for (int holders = 1; holders <= 4 && holders <= rate; holders++) {
                double total = 0;
                long windows = 0;
                for (int rank = 0; rank < holders; rank++) {
                    double s = share(rate, holders, rank);
                    assertThat(s).as("rate %s, %d holders, rank %d", rate, holders, rank).isGreaterThanOrEqualTo(1);
                    total += s;
                    windows += (long) Math.ceil(s);
                }
                assertThat(total).as("rate %s over %d", rate, holders).isCloseTo(rate, org.assertj.core.data.Offset.offset(1e-9));
                assertThat(windows).as("windows, rate %s over %d", rate, holders).isEqualTo((long) Math.ceil(rate));
            }
        }
        // 50/s over four: 13, 13, 12, 12 (equal shares of 12.5 had windows of 13 each: 52 in a second).
        assertThat(List.of(share(50, 4, 0), share(50, 4, 1), share(50, 4, 2), share(50, 4, 3))).containsExactly(13.0, 13.0, 12.0, 12.0);
    }

    @Test
    void below_one_message_per_holder_the_shares_stay_equal_and_a_campaign_cap_still_applies() {
        assertThat(share(2, 4, 3)).isEqualTo(0.5);
        assertThat(share(0, 3, 1)).isZero();   // unlimited relay
        assertThat(RelayRate.shareOf(0, new RelayShareTable.Holders(3, 1), 5)).isEqualTo(5);
        assertThat(RelayRate.shareOf(50, new RelayShareTable.Holders(4, 0), 5)).isEqualTo(5);
        assertThatThrownBy(() -> new RelayShareTable.Holders(2, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void each_live_holder_sees_the_same_count_and_its_own_rank() throws Exception {
        RelayShareTable shares = new RelayShareTable();
        List<String> tokens = List.of("33333333-0000-0000-0000-000000000000", "11111111-0000-0000-0000-000000000000",
                "22222222-0000-0000-0000-000000000000");
        List<RelayShareTable.Holders> seen = new ArrayList<>();
        for (String t : tokens) {
            Transactions.inTransaction(db.dataSource(), c -> shares.renew(c, "relay-ranks", t, Duration.ofMinutes(1)));
        }
        for (String t : tokens) {
            seen.add(Transactions.inTransaction(db.dataSource(), c -> shares.renew(c, "relay-ranks", t, Duration.ofMinutes(1))));
        }
        assertThat(seen).containsExactly(new RelayShareTable.Holders(3, 2), new RelayShareTable.Holders(3, 0), new RelayShareTable.Holders(3, 1));
        // Another relay's holders do not count; a released holder no longer does either.
        Transactions.inTransaction(db.dataSource(), c -> shares.renew(c, "relay-other", tokens.get(0), Duration.ofMinutes(1)));
        Transactions.inTransaction(db.dataSource(), c -> {
            shares.release(c, "relay-ranks", tokens.get(1));
            return null;
        });
        RelayShareTable.Holders after = Transactions.inTransaction(db.dataSource(),
                c -> shares.renew(c, "relay-ranks", tokens.get(0), Duration.ofMinutes(1)));
        assertThat(after).isEqualTo(new RelayShareTable.Holders(2, 1));
        // Nor does one whose share ran out unrenewed (a killed worker's), by the database clock.
        Transactions.inTransaction(db.dataSource(), c -> {
            try (var ps = c.prepareStatement("UPDATE relay_share SET expires_at = UTC_TIMESTAMP(3) - INTERVAL 1 SECOND"
                    + " WHERE relay = 'relay-ranks' AND holder = ?")) {
                ps.setString(1, tokens.get(2));
                return ps.executeUpdate();
            }
        });
        RelayShareTable.Holders alone = Transactions.inTransaction(db.dataSource(),
                c -> shares.renew(c, "relay-ranks", tokens.get(0), Duration.ofMinutes(1)));
        assertThat(alone).isEqualTo(new RelayShareTable.Holders(1, 0));
    }

    @Test
    void every_holder_renewing_finds_the_others_by_token_their_rank_and_what_one_of_them_wants() throws Exception {
        RelayShareTable shares = new RelayShareTable();
        String low = "11111111-0000-0000-0000-00000000000a";
        String high = "22222222-0000-0000-0000-00000000000b";
        List<String> names = List.of("relay-wants", "domain:wants-gmail");
        Transactions.inTransaction(db.dataSource(), c -> shares.renewAll(c, names, low, Duration.ofMinutes(1)));
        Transactions.inTransaction(db.dataSource(), c -> shares.renewAll(c, names, high, Duration.ofMinutes(1)));
        Transactions.inTransaction(db.dataSource(), c -> {
            shares.want(c, "relay-wants", low, 3);
            return null;
        });

        var seenByHigh = Transactions.inTransaction(db.dataSource(), c -> shares.renewAll(c, names, high, Duration.ofMinutes(1)));
        var seenByLow = Transactions.inTransaction(db.dataSource(), c -> shares.renewAll(c, names, low, Duration.ofMinutes(1)));

        assertThat(seenByHigh.get("relay-wants")).isEqualTo(new RelayShareTable.Live(new RelayShareTable.Holders(2, 1),
                java.util.Set.of(low), java.util.Set.of(low), java.util.Map.of(low, 3.0)));
        assertThat(seenByHigh.get("domain:wants-gmail").wants()).as("a want is the relay's only").isEmpty();
        assertThat(seenByLow.get("relay-wants")).isEqualTo(new RelayShareTable.Live(new RelayShareTable.Holders(2, 0),
                java.util.Set.of(high), java.util.Set.of(), java.util.Map.of()));
        // The holder above takes the rest of the relay's 50/s, the one wanting 3 takes 3.
        assertThat(RelayRate.shareOf(50, seenByHigh.get("relay-wants"), 0, 0)).isEqualTo(47);
    }
}
