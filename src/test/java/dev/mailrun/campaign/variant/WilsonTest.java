package dev.mailrun.campaign.variant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The 95 % Wilson score interval against values worked by hand. */
class WilsonTest {

    @Test
    void none_of_ten_is_not_a_zero_width_interval() {
        Wilson w = Wilson.of(0, 10);
        assertThat(w.rate()).isZero();
        assertThat(w.low()).isZero();
        // z² / (n + z²) = 3.8415 / 13.8415
        assertThat(w.high()).isCloseTo(0.27754, within(1e-5));
    }

    @Test
    void half_of_ten_is_symmetric_around_the_rate() {
        Wilson w = Wilson.of(5, 10);
        assertThat(w.low()).isCloseTo(0.23659, within(1e-5));
        assertThat(w.high()).isCloseTo(0.76341, within(1e-5));
    }

    @Test
    void nothing_measured_says_nothing_and_a_count_above_its_total_is_refused() {
        Wilson w = Wilson.of(0, 0);
        assertThat(w.low()).isZero();
        assertThat(w.high()).isEqualTo(1);
        assertThat(Wilson.of(3, 412).toString()).isEqualTo("0.7% (95% 0.2–2.1%, 3 of 412)");
        assertThatThrownBy(() -> Wilson.of(5, 4)).isInstanceOf(IllegalArgumentException.class);
    }
}
