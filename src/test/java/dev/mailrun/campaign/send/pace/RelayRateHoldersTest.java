package dev.mailrun.campaign.send.pace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A run's share of a relay as holders join and leave, renewal by renewal. */
class RelayRateHoldersTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void a_joining_holder_lowers_the_share_at_once_and_a_leaving_one_raises_it_a_windows_span_later() {
        RelayRate rate = RelayRate.forRelay(50, 0);
        assertThat(rate.current()).isEqualTo(50);

        rate.update(Lives.of(2, 1), 50, 0);
        assertThat(rate.current()).as("another worker joined").isEqualTo(25);

        rate.update(Lives.of(1, 0), 50, SECOND);
        assertThat(rate.current()).as("it left: its last second may still hold its 25").isEqualTo(25);
        rate.update(Lives.of(1, 0), 50, SECOND + SECOND / 10);
        assertThat(rate.current()).as("a renewal 100 ms later: that second has not gone by").isEqualTo(25);
        rate.update(Lives.of(1, 0), 50, 2 * SECOND);
        assertThat(rate.current()).as("a second later: its last send may have been 1,004 ms ago, within the window's span")
                .isEqualTo(25);
        rate.update(Lives.of(1, 0), 50, SECOND + RelayRate.RISE_AFTER.toNanos());
        assertThat(rate.current()).as("the windows' span after the renewal that found it").isEqualTo(50);
        assertThat(rate.limiter().rate()).isEqualTo(50);
    }

    @Test
    void a_holder_that_comes_back_before_the_rise_leaves_the_share_where_it_was() {
        RelayRate rate = RelayRate.forRelay(50, 0);
        rate.update(Lives.of(2, 0), 50, 0);
        rate.update(Lives.of(1, 0), 50, SECOND);
        rate.update(Lives.of(2, 0), 50, 2 * SECOND);
        rate.update(Lives.of(2, 0), 50, 3 * SECOND);
        assertThat(rate.current()).isEqualTo(25);
    }

    @Test
    void a_holder_left_with_capped_domains_only_takes_what_it_wants_and_the_others_share_the_rest_a_second_later() {
        RelayRate mine = RelayRate.forRelay(50, 0);
        mine.update(Lives.of(2, 0), 50, 0);
        assertThat(mine.current()).isEqualTo(25);

        // The other holder ("h0") has only a group capped at 3/s left.
        mine.update(Lives.of(2, 0, java.util.Map.of("h0", 2.5)), 50, SECOND);
        assertThat(mine.current()).as("its last second may still hold its 25").isEqualTo(25);
        mine.update(Lives.of(2, 0, java.util.Map.of("h0", 2.5)), 50, SECOND + RelayRate.RISE_AFTER.toNanos());
        assertThat(mine.current()).isEqualTo(47);

        RelayRate theirs = RelayRate.forRelay(50, 0);
        theirs.update(Lives.of(2, 1), 50, 0);
        theirs.want(2.5);
        assertThat(theirs.current()).as("lowered at once, to whole messages").isEqualTo(3);
        theirs.update(Lives.of(2, 1), 50, 5 * SECOND);
        assertThat(theirs.current()).as("never raised again in the run").isEqualTo(3);
    }

    @Test
    void shares_with_holders_wanting_less_still_add_up_to_the_relays_rate() {
        java.util.Map<String, Double> wants = java.util.Map.of("h0", 4.0, "h2", 30.0);
        // Four holders of 50/s: the even whole share is 12; h0 wants 4 (below it), h2 wants 30 (not).
        double sum = 4;
        sum += RelayRate.shareOf(50, Lives.of(4, 1, wants), 0, 0);
        sum += RelayRate.shareOf(50, Lives.of(4, 3, wants), 0, 0);
        // h2 itself, at rank 2 of the four with h0 below it: 46 dealt among three, then its own cap.
        sum += RelayRate.shareOf(50, Lives.of(4, 2, java.util.Map.of("h0", 4.0)), 30, 0);
        assertThat(sum).isEqualTo(50);
    }
}
