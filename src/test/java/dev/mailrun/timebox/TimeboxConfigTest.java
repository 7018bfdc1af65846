package dev.mailrun.timebox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TimeboxConfigTest {

    private static final Duration MS_20 = Duration.ofMillis(20);
    private static final Duration MS_10 = Duration.ofMillis(10);

    @Test
    void defaults_should_be_valid() {
        assertThat(TimeboxConfig.defaults().maxBatch()).isEqualTo(100);
    }

    @Test
    void config_should_reject_a_minimum_batch_below_one() {
        assertThatThrownBy(() -> new TimeboxConfig(10, 0, 100, 0, 1.5, MS_20, MS_10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("minBatch must be at least 1, was 0");
    }

    @Test
    void config_should_reject_a_maximum_batch_below_the_minimum() {
        assertThatThrownBy(() -> new TimeboxConfig(5, 5, 4, 0, 1.5, MS_20, MS_10))
                .hasMessage("maxBatch must be at least minBatch (5), was 4");
    }

    @Test
    void config_should_reject_a_calibration_batch_outside_the_batch_range() {
        assertThatThrownBy(() -> new TimeboxConfig(500, 1, 100, 0, 1.5, MS_20, MS_10))
                .hasMessage("calibrationBatch must be between minBatch (1) and maxBatch (100), was 500");
    }

    @Test
    void config_should_reject_a_negative_rate_limit() {
        assertThatThrownBy(() -> new TimeboxConfig(10, 1, 100, -1, 1.5, MS_20, MS_10))
                .hasMessage("maxItemsPerSecond must be 0 (no limit) or a positive number, was -1.0");
    }

    @Test
    void config_should_reject_a_growth_factor_that_does_not_grow() {
        assertThatThrownBy(() -> new TimeboxConfig(10, 1, 100, 0, 1.0, MS_20, MS_10))
                .hasMessage("growthFactor must be a finite number greater than 1, was 1.0");
    }

    @Test
    void config_should_reject_a_negative_overhead_and_a_zero_minimum_timeout() {
        assertThatThrownBy(() -> new TimeboxConfig(10, 1, 100, 0, 1.5, Duration.ofMillis(-1), MS_10))
                .hasMessage("batchOverhead must not be negative, was PT-0.001S");
        assertThatThrownBy(() -> new TimeboxConfig(10, 1, 100, 0, 1.5, MS_20, Duration.ZERO))
                .hasMessage("minTimeout must be positive, was PT0S");
    }

    @Test
    void config_should_name_a_missing_duration() {
        assertThatThrownBy(() -> new TimeboxConfig(10, 1, 100, 0, 1.5, null, MS_10))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("batchOverhead must not be null");
    }
}
