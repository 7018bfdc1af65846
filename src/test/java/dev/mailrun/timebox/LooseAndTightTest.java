package dev.mailrun.timebox;

import dev.mailrun.testing.SettableClock;
import static dev.mailrun.timebox.TimeboxFixtures.CONFIG;
import static dev.mailrun.timebox.TimeboxFixtures.NEVER_STOP;
import static dev.mailrun.timebox.TimeboxFixtures.T0;
import static dev.mailrun.timebox.TimeboxFixtures.at;
import static dev.mailrun.timebox.TimeboxFixtures.ms;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LooseAndTightTest {

    private final SettableClock clock = new SettableClock(T0);
    private final Timebox timebox = new Timebox(clock, CONFIG);

    @Test
    void loose_should_start_a_batch_whenever_now_is_before_the_deadline_and_so_overrun_by_up_to_one_batch()
            throws Exception {
        // 20 items × 15 ms = 300 ms a batch; batches start at 0, 300, 600 and 900 ms.
        SimulatedOperator operator = SimulatedOperator.constant(clock, Duration.ZERO, ms(15));

        TimeboxReport report = timebox.runUntil(at(1000), operator, Algorithm.LOOSE, EstimatorState.initial(), NEVER_STOP);

        assertThat(report.batches()).isEqualTo(4);
        assertThat(report.ended()).isEqualTo(at(1200));
        assertThat(report.overrun()).isEqualTo(ms(200));
        assertThat(report.endReason()).isEqualTo(EndReason.DEADLINE);
    }

    @Test
    void loose_and_tight_should_hand_out_the_fixed_maximum_batch() throws Exception {
        for (Algorithm algorithm : new Algorithm[] {Algorithm.LOOSE, Algorithm.TIGHT}) {
            clock.set(T0);
            SimulatedOperator operator = SimulatedOperator.constant(clock, Duration.ZERO, ms(15));

            timebox.runUntil(at(1000), operator, algorithm, EstimatorState.initial(), NEVER_STOP);

            assertThat(operator.askedSizes).as(algorithm.name()).containsOnly(CONFIG.maxBatch());
        }
    }

    @Test
    void tight_should_stop_when_now_plus_the_mean_batch_duration_passes_the_deadline() throws Exception {
        SimulatedOperator operator = SimulatedOperator.constant(clock, Duration.ZERO, ms(15));

        TimeboxReport report = timebox.runUntil(at(1000), operator, Algorithm.TIGHT, EstimatorState.initial(), NEVER_STOP);

        // At 900 ms the mean of 300 ms would end at 1200 ms: no fourth batch.
        assertThat(report.batches()).isEqualTo(3);
        assertThat(report.ended()).isEqualTo(at(900));
        assertThat(report.overrun()).isEqualTo(Duration.ZERO);
        assertThat(report.utilisation()).isCloseTo(0.9, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void tight_should_overrun_when_the_last_batch_is_slower_than_the_mean() throws Exception {
        // 200, 200 then 400 ms: at 400 ms the mean (200 ms) says the third batch ends at 600 ms.
        SimulatedOperator operator = new SimulatedOperator(clock, Duration.ZERO,
                batch -> batch < 2 ? ms(10) : ms(20), false);

        TimeboxReport report = timebox.runUntil(at(700), operator, Algorithm.TIGHT, EstimatorState.initial(), NEVER_STOP);

        assertThat(report.batches()).isEqualTo(3);
        assertThat(report.overrun()).isEqualTo(ms(100));
    }

    @Test
    void no_algorithm_should_start_a_batch_once_the_deadline_has_passed() throws Exception {
        for (Algorithm algorithm : Algorithm.values()) {
            clock.set(T0);
            SimulatedOperator operator = SimulatedOperator.constant(clock, Duration.ZERO, ms(15));

            TimeboxReport report = timebox.runUntil(T0, operator, algorithm, EstimatorState.initial(), NEVER_STOP);

            assertThat(report.batches()).as(algorithm.name()).isZero();
            assertThat(report.endReason()).as(algorithm.name()).isEqualTo(EndReason.DEADLINE);
        }
    }
}
