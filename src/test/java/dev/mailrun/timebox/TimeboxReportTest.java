package dev.mailrun.timebox;

import static dev.mailrun.timebox.TimeboxFixtures.T0;
import static dev.mailrun.timebox.TimeboxFixtures.at;
import static dev.mailrun.timebox.TimeboxFixtures.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TimeboxReportTest {

    @Test
    void report_should_measure_utilisation_against_the_window_from_start_to_deadline() {
        TimeboxReport report = TimeboxReport.of(T0, at(950), at(1000), 3, 30, ms(900),
                EstimatorState.initial(), EndReason.DEADLINE);

        assertThat(report.utilisation()).isCloseTo(0.9, offset(1e-12));
        assertThat(report.overrun()).isEqualTo(Duration.ZERO);
    }

    @Test
    void report_should_measure_overrun_past_the_deadline() {
        TimeboxReport report = TimeboxReport.of(T0, at(1100), at(1000), 4, 40, ms(1100),
                EstimatorState.initial(), EndReason.DEADLINE);

        assertThat(report.overrun()).isEqualTo(ms(100));
        assertThat(report.utilisation()).isCloseTo(1.1, offset(1e-12));
    }

    @Test
    void report_should_give_zero_utilisation_for_a_window_that_was_already_closed() {
        TimeboxReport report = TimeboxReport.of(at(1000), at(1000), T0, 0, 0, Duration.ZERO,
                EstimatorState.initial(), EndReason.DEADLINE);

        assertThat(report.utilisation()).isZero();
        assertThat(report.overrun()).isEqualTo(ms(1000));
    }
}
