package dev.mailrun.campaign.send.route;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WeightedSplitTest {

    @Test
    void every_prefix_of_the_deal_is_within_one_recipient_of_the_weights() {
        WeightedSplit split = new WeightedSplit(3);
        int[] weights = {70, 25, 5};
        int[] dealt = new int[3];
        for (int n = 1; n <= 10_000; n++) {
            dealt[split.next(weights)]++;
            for (int i = 0; i < 3; i++) {
                assertThat(Math.abs(dealt[i] - n * weights[i] / 100.0)).as("leg %d after %d", i, n).isLessThanOrEqualTo(1.0);
            }
        }
    }

    @Test
    void a_leg_that_is_down_hands_its_weight_to_the_next_leg_that_is_up_wrapping_around() {
        assertThat(WeightedSplit.effective(new int[] {70, 30}, new boolean[] {false, true})).containsExactly(0, 100);
        assertThat(WeightedSplit.effective(new int[] {70, 30}, new boolean[] {true, false})).containsExactly(100, 0);
        assertThat(WeightedSplit.effective(new int[] {50, 50, 0}, new boolean[] {true, false, true})).containsExactly(50, 0, 50);
        assertThat(WeightedSplit.effective(new int[] {1, 0, 0}, new boolean[] {false, false, true})).containsExactly(0, 0, 1);
        assertThat(WeightedSplit.effective(new int[] {1, 0}, new boolean[] {false, false})).containsExactly(0, 0);
    }

    @Test
    void a_fallback_of_weight_zero_takes_nothing_while_the_weighted_legs_are_up() {
        WeightedSplit split = new WeightedSplit(2);
        int[] weights = WeightedSplit.effective(new int[] {1, 0}, new boolean[] {true, true});
        for (int n = 0; n < 100; n++) {
            assertThat(split.next(weights)).isZero();
        }
    }

    @Test
    void the_back_off_doubles_from_thirty_seconds_up_to_an_hour() {
        assertThat(BackOff.after(1)).hasSeconds(30);
        assertThat(BackOff.after(2)).hasSeconds(60);
        assertThat(BackOff.after(5)).hasSeconds(480);
        assertThat(BackOff.after(8)).hasSeconds(3600);
        assertThat(BackOff.after(1_000)).hasSeconds(3600);
    }
}
