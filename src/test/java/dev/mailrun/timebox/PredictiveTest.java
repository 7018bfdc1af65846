package dev.mailrun.timebox;

import dev.mailrun.testing.SettableClock;
import static dev.mailrun.timebox.TimeboxFixtures.CONFIG;
import static dev.mailrun.timebox.TimeboxFixtures.NEVER_STOP;
import static dev.mailrun.timebox.TimeboxFixtures.OVERHEAD;
import static dev.mailrun.timebox.TimeboxFixtures.T0;
import static dev.mailrun.timebox.TimeboxFixtures.at;
import static dev.mailrun.timebox.TimeboxFixtures.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PredictiveTest {

    private final SettableClock clock = new SettableClock(T0);
    private final Timebox timebox = new Timebox(clock, CONFIG);

    @Test
    void predictive_should_start_with_the_calibration_batch_when_it_has_no_history() throws Exception {
        SimulatedOperator operator = SimulatedOperator.constant(clock, OVERHEAD, ms(10));

        timebox.runUntil(at(3000), operator, Algorithm.PREDICTIVE, EstimatorState.initial(), NEVER_STOP);

        assertThat(operator.askedSizes.get(0)).isEqualTo(CONFIG.calibrationBatch());
    }

    @Test
    void predictive_should_grow_from_the_calibration_batch_by_the_growth_factor() throws Exception {
        SimulatedOperator operator = SimulatedOperator.constant(clock, OVERHEAD, ms(10));

        timebox.runUntil(at(3000), operator, Algorithm.PREDICTIVE, EstimatorState.initial(), NEVER_STOP);

        assertThat(operator.askedSizes.subList(0, 5)).containsExactly(5, 8, 12, 18, 20);
    }

    @Test
    void predictive_should_size_the_last_batches_to_fill_the_remaining_window() throws Exception {
        // 7 ms items: full batches of 150 ms do not divide the 3 s window, so the last one must shrink.
        SimulatedOperator operator = SimulatedOperator.constant(clock, OVERHEAD, ms(7));

        TimeboxReport report = timebox.runUntil(at(3000), operator, Algorithm.PREDICTIVE, EstimatorState.initial(), NEVER_STOP);

        List<Integer> asked = operator.askedSizes;
        assertThat(asked.get(asked.size() - 1)).isLessThan(CONFIG.maxBatch());
        assertThat(report.overrun()).isEqualTo(Duration.ZERO);
        assertThat(report.utilisation()).isGreaterThanOrEqualTo(0.99);
        assertThat(report.endReason()).isEqualTo(EndReason.DEADLINE);
    }

    @Test
    void predictive_should_not_start_a_batch_when_even_the_minimum_batch_does_not_fit() throws Exception {
        // Calibrated at 100 ms an item: 10 ms overhead + 1 item does not fit into 100 ms.
        EstimatorState slow = new EstimatorState(10, 100, 0, 20);
        SimulatedOperator operator = SimulatedOperator.constant(clock, OVERHEAD, ms(100));

        TimeboxReport report = timebox.runUntil(at(100), operator, Algorithm.PREDICTIVE, slow, NEVER_STOP);

        assertThat(report.batches()).isZero();
        assertThat(report.endReason()).isEqualTo(EndReason.DEADLINE);
    }

    @Test
    void predictive_should_start_calibrated_from_a_stored_state() throws Exception {
        EstimatorState stored = new EstimatorState(40, 10, 0.5, 18);
        SimulatedOperator operator = SimulatedOperator.constant(clock, OVERHEAD, ms(10));

        timebox.runUntil(at(3000), operator, Algorithm.PREDICTIVE, stored, NEVER_STOP);

        assertThat(operator.askedSizes.get(0)).isEqualTo(18);
    }

    @Test
    void predictive_should_clamp_a_stored_cap_to_the_configured_batch_range() throws Exception {
        EstimatorState storedUnderBiggerConfig = new EstimatorState(40, 10, 0.5, 500);
        SimulatedOperator operator = SimulatedOperator.constant(clock, OVERHEAD, ms(10));

        timebox.runUntil(at(3000), operator, Algorithm.PREDICTIVE, storedUnderBiggerConfig, NEVER_STOP);

        assertThat(operator.askedSizes).allSatisfy(size -> assertThat(size).isLessThanOrEqualTo(CONFIG.maxBatch()));
    }

    @Test
    void predictive_should_treat_the_rate_limit_as_a_floor_on_item_cost() throws Exception {
        // 10 items a second = 100 ms an item; 560 ms minus 10 ms overhead fits 5 of them.
        TimeboxConfig limited = new TimeboxConfig(10, 1, 20, 10, 1.5, OVERHEAD, ms(5));
        SimulatedOperator operator = SimulatedOperator.constant(clock, OVERHEAD, ms(100));

        new Timebox(clock, limited).runUntil(at(560), operator, Algorithm.PREDICTIVE, EstimatorState.initial(), NEVER_STOP);

        assertThat(operator.askedSizes.get(0)).isEqualTo(5);
    }

    @Test
    void predictive_should_size_each_batch_by_the_rate_its_rate_source_gives_at_that_moment() throws Exception {
        // Calibrated and free items: the rate alone decides how many fit into the 1 s after the overhead.
        TimeboxConfig config = new TimeboxConfig(10, 1, 1000, 100, 1.5, OVERHEAD, ms(5));
        double[] rate = {100};
        List<Integer> asked = new ArrayList<>();
        BatchOperator operator = budget -> {
            asked.add(budget.maxItems());
            rate[0] = 50;   // the rate halves while the first batch runs
            return asked.size() == 2 ? BatchResult.done(budget.maxItems()) : BatchResult.more(budget.maxItems());
        };

        new Timebox(clock, config, () -> rate[0]).runUntil(at(1010), operator, Algorithm.PREDICTIVE,
                new EstimatorState(40, 0, 0, 1000), NEVER_STOP);

        assertThat(asked).containsExactly(100, 50);
    }

    @Test
    void a_rate_source_is_held_to_the_same_rule_as_the_configured_rate() {
        BatchOperator operator = budget -> BatchResult.done(0);

        assertThatThrownBy(() -> new Timebox(clock, CONFIG, () -> -1).runUntil(at(1000), operator, Algorithm.PREDICTIVE,
                EstimatorState.initial(), NEVER_STOP))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxItemsPerSecond must be 0 (no limit) or a positive number, was -1.0");
    }

    @Test
    void predictive_should_shrink_next_batch_after_slow_outlier() throws Exception {
        int outlier = 12;
        SimulatedOperator operator = new SimulatedOperator(clock, OVERHEAD,
                batch -> batch == outlier ? ms(50) : ms(10), false);

        timebox.runUntil(at(60_000), operator, Algorithm.PREDICTIVE, EstimatorState.initial(), NEVER_STOP);

        List<Integer> asked = operator.askedSizes;
        assertThat(asked.get(outlier)).isEqualTo(CONFIG.maxBatch());
        // Five times slower than expected: the next batch is about a fifth, at once.
        assertThat(asked.get(outlier + 1)).isLessThanOrEqualTo(CONFIG.maxBatch() / 4);
    }

    @Test
    void predictive_should_grow_back_gradually_after_an_outlier() throws Exception {
        int outlier = 12;
        SimulatedOperator operator = new SimulatedOperator(clock, OVERHEAD,
                batch -> batch == outlier ? ms(50) : ms(10), false);

        timebox.runUntil(at(60_000), operator, Algorithm.PREDICTIVE, EstimatorState.initial(), NEVER_STOP);

        List<Integer> asked = operator.askedSizes;
        int back = outlier + 1;
        while (asked.get(back) < CONFIG.maxBatch()) {
            assertThat(asked.get(back + 1)).isGreaterThan(asked.get(back))
                    .isLessThanOrEqualTo((int) Math.ceil(asked.get(back) * CONFIG.growthFactor()));
            back++;
        }
        assertThat(back - outlier).as("batches to grow back").isGreaterThanOrEqualTo(4);
    }

    @Test
    void predictive_should_keep_a_run_inside_the_deadline_when_items_slow_down_at_the_end_and_the_operator_checks_its_budget()
            throws Exception {
        // Items take 10 ms until 2.8 s, then 60 ms: the last batch was sized for the fast ones.
        BatchOperator operator = budget -> {
            clock.advance(ms(3));
            int done = 0;
            while (done < budget.maxItems() && budget.hasTimeForAnotherItem()) {
                Duration cost = clock.instant().isBefore(at(2800)) ? ms(10) : ms(60);
                Duration timeout = budget.itemTimeoutFor(Duration.ofSeconds(30));
                if (cost.compareTo(timeout) > 0) {
                    clock.advance(timeout); // the item's blocking call times out; it is not done
                    break;
                }
                clock.advance(cost);
                done++;
            }
            clock.advance(ms(3));
            return BatchResult.more(done);
        };

        TimeboxReport report = timebox.runUntil(at(3000), operator, Algorithm.PREDICTIVE, EstimatorState.initial(), NEVER_STOP);

        assertThat(report.overrun()).isEqualTo(Duration.ZERO);
        assertThat(report.ended()).isBefore(at(3000));
    }

    @Test
    void the_small_last_batches_of_a_run_held_to_its_rate_do_not_widen_the_pessimistic_cost() throws Exception {
        // 25/s: 40 ms an item, which is what every item takes; the batches end with their items
        // (a sender that claims ahead), so the 50 ms overhead is not in their time, and a batch of
        // 3 shows (120 - 50) / 3 = 23 ms an item.
        TimeboxConfig paced = new TimeboxConfig(10, 1, 500, 25, 1.5, ms(50), ms(25));
        BatchOperator atTheRate = budget -> {
            int done = 0;
            while (done < budget.maxItems() && budget.hasTimeForAnotherItem()) {
                clock.advance(ms(40));
                done++;
            }
            return BatchResult.more(done);
        };
        EstimatorState state = new EstimatorState(50, 40, 0.5, 100);
        for (int run = 0; run < 5; run++) {
            Instant start = clock.instant();
            state = new Timebox(clock, paced).runUntil(start.plusSeconds(10), atTheRate, Algorithm.PREDICTIVE, state,
                    NEVER_STOP).estimator();
        }

        assertThat(state.perItemUpperMillis()).as("the rate's 40 ms, not more").isLessThan(42);
    }
}
