package dev.mailrun.timebox;

import static dev.mailrun.timebox.TimeboxFixtures.CONFIG;
import static dev.mailrun.timebox.TimeboxFixtures.NEVER_STOP;
import static dev.mailrun.timebox.TimeboxFixtures.OVERHEAD;
import static dev.mailrun.timebox.TimeboxFixtures.T0;
import static dev.mailrun.timebox.TimeboxFixtures.at;
import static dev.mailrun.timebox.TimeboxFixtures.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunCostsTest {

    private final SettableClock clock = new SettableClock(T0);
    private final Timebox timebox = new Timebox(clock, CONFIG);

    /** Calibrated at 10 ms per item with no deviation, batches capped at 20. */
    private static final EstimatorState CALIBRATED = new EstimatorState(50, 10, 0, 20);

    @Test
    void the_last_batch_ends_the_shutdown_reserve_beyond_the_batch_overhead_before_the_deadline() throws Exception {
        RunCosts costs = new RunCosts(5, 0, 510, 25); // reserve: the mean, 510 ms, less the 10 ms overhead
        SimulatedOperator operator = SimulatedOperator.constant(clock, OVERHEAD, ms(10));

        TimeboxReport report = timebox.runUntil(at(10_000), operator, Algorithm.PREDICTIVE, CALIBRATED, costs, NEVER_STOP);

        assertThat(report.deadline()).isEqualTo(at(9_500));
        assertThat(report.ended()).isBeforeOrEqualTo(at(9_500)).isAfter(at(9_400));
        assertThat(report.overrun()).isZero();
    }

    @Test
    void the_first_batch_is_sized_with_the_start_up_cost_and_its_sample_excludes_it() throws Exception {
        RunCosts costs = new RunCosts(5, 1_000, 0, 0);
        // The first batch pays 1 s of start-up on top of its items; later batches do not.
        SimulatedOperator operator = SimulatedOperator.constant(clock, OVERHEAD, ms(10));
        BatchOperator slowStart = budget -> {
            if (operator.askedSizes.isEmpty()) {
                clock.advance(Duration.ofSeconds(1));
            }
            return operator.runBatch(budget);
        };

        TimeboxReport report = timebox.runUntil(at(1_200), slowStart, Algorithm.PREDICTIVE, CALIBRATED, costs, NEVER_STOP);

        // 1200 ms − 1000 ms start-up − 10 ms overhead leaves room for 19 items of 10 ms.
        assertThat(operator.askedSizes.get(0)).isEqualTo(19);
        assertThat(report.overrun()).isZero();
        assertThat(report.estimator().perItemMillis()).as("the start-up is not a per-item cost").isEqualTo(10.0);
        assertThat(report.startup()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void without_the_start_up_cost_the_first_batch_overruns() throws Exception {
        SimulatedOperator operator = SimulatedOperator.constant(clock, OVERHEAD, ms(10));
        BatchOperator slowStart = budget -> {
            if (operator.askedSizes.isEmpty()) {
                clock.advance(Duration.ofSeconds(1));
            }
            return operator.runBatch(budget);
        };

        TimeboxReport report = timebox.runUntil(at(1_200), slowStart, Algorithm.PREDICTIVE, CALIBRATED,
                RunCosts.unknown(), NEVER_STOP);

        assertThat(report.overrun()).isPositive();
    }

    @Test
    void costs_are_smoothed_from_run_to_run_and_survive_a_round_trip_through_a_map() {
        RunCosts costs = RunCosts.unknown().observe(ms(200), ms(400));
        assertThat(costs.startup()).isEqualTo(ms(200));
        assertThat(costs.shutdownReserve()).isEqualTo(ms(400));
        RunCosts next = costs.observe(ms(200), ms(400));
        assertThat(next.shutdownMillis()).isEqualTo(400.0);
        assertThat(next.shutdownDevMillis()).isEqualTo(150.0);
        assertThat(RunCosts.fromMap(next.toMap())).isEqualTo(next);
        assertThat(RunCosts.fromMap(Map.of("samples", "x"))).isEqualTo(RunCosts.unknown());
        assertThat(RunCosts.fromMap(null)).isEqualTo(RunCosts.unknown());
    }
}
