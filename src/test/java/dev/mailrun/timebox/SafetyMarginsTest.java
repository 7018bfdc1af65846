package dev.mailrun.timebox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SafetyMarginsTest {

    private static final Duration CAP = Duration.ofSeconds(15);
    private final SafetyMargins margins = SafetyMargins.upTo(CAP);

    private static long[] repeat(long value, int n) {
        long[] a = new long[n];
        java.util.Arrays.fill(a, value);
        return a;
    }

    @Test
    void without_samples_the_margin_is_the_configured_bound() {
        assertThat(margins.margin(new long[0], new long[0])).isEqualTo(CAP);
    }

    @Test
    void without_samples_a_first_guess_may_stand_in_for_the_bound_within_floor_and_cap() {
        assertThat(SafetyMargins.upTo(CAP, Duration.ofSeconds(1)).margin(new long[0], new long[0]))
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(SafetyMargins.upTo(CAP, Duration.ofMillis(10)).unmeasured()).isEqualTo(Duration.ofMillis(100));
        assertThat(SafetyMargins.upTo(Duration.ofMillis(500), Duration.ofSeconds(1)).unmeasured())
                .isEqualTo(Duration.ofMillis(500));
        assertThat(SafetyMargins.upTo(CAP, Duration.ofSeconds(1)).margin(new long[] {900}, new long[] {900}))
                .as("once measured, the samples decide").isEqualTo(Duration.ofMillis(1_800));
        assertThatThrownBy(() -> new SafetyMargins(Duration.ZERO, CAP, 0.95, 1, CAP.plusSeconds(1)))
                .hasMessageContaining("unmeasured");
    }

    @Test
    void steady_samples_give_their_sum_with_no_spread() {
        assertThat(margins.margin(repeat(30, 10), repeat(470, 10))).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void the_margin_never_goes_below_the_floor() {
        assertThat(margins.margin(repeat(1, 10), repeat(2, 10))).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void spread_widens_the_margin_beyond_the_high_percentile() {
        long[] late = repeat(10, 20);
        long[] release = repeat(290, 20);
        release[19] = 1_990; // one slow release in twenty: the 95th percentile (19th of 20) is still 300
        release[18] = 990;
        SafetyMargins.Stats stats = margins.stats(late, release);
        assertThat(stats.medianMillis()).isEqualTo(300);
        assertThat(stats.highMillis()).isEqualTo(1_000);
        assertThat(margins.of(stats)).isEqualTo(Duration.ofMillis(1_000 + 700));
    }

    @Test
    void the_margin_is_capped_and_one_huge_sample_counts_only_up_to_the_cap() {
        assertThat(margins.margin(repeat(10, 5), repeat(60_000, 5))).isEqualTo(CAP);
        assertThat(margins.stats(new long[] {120_000}, new long[] {0}).highMillis()).isEqualTo(CAP.toMillis());
    }

    @Test
    void an_early_release_counts_as_zero() {
        assertThat(margins.stats(new long[] {40}, new long[] {-3_000}).highMillis()).isEqualTo(40);
    }

    @Test
    void unpaired_samples_and_bad_settings_are_refused() {
        assertThatThrownBy(() -> margins.stats(new long[2], new long[1])).hasMessageContaining("pair up");
        assertThatThrownBy(() -> new SafetyMargins(Duration.ofSeconds(2), Duration.ofSeconds(1), 0.95, 1, Duration.ofSeconds(1)))
                .hasMessageContaining("floor <= cap");
        assertThatThrownBy(() -> new SafetyMargins(Duration.ZERO, CAP, 0, 1, CAP)).hasMessageContaining("percentile");
    }
}
