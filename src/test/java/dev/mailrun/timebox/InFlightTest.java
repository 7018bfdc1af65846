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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Batches whose items are paced at 10 ms each and whose last item still needs 300 ms after it was
 * started, as against a relay far away: told of that in-flight time, the timebox learns the
 * per-item cost without it, grows the batches and ends them in time.
 */
class InFlightTest {

    private static final Duration TAIL = ms(300);

    /** Items at 10 ms each, then the last item's remaining 300 ms. */
    private static final class DistantOperator implements BatchOperator {
        final List<Integer> sizes = new ArrayList<>();
        final SettableClock clock;

        DistantOperator(SettableClock clock) {
            this.clock = clock;
        }

        @Override
        public BatchResult runBatch(BatchBudget budget) {
            sizes.add(budget.maxItems());
            clock.advance(OVERHEAD.dividedBy(2));
            clock.advance(ms(10).multipliedBy(budget.maxItems()));
            clock.advance(TAIL);
            clock.advance(OVERHEAD.dividedBy(2));
            return BatchResult.more(budget.maxItems());
        }
    }

    @Test
    void told_the_in_flight_time_the_batches_grow_to_the_maximum_and_end_before_the_deadline() throws Exception {
        SettableClock clock = new SettableClock(T0);
        DistantOperator operator = new DistantOperator(clock);
        Timebox timebox = new Timebox(clock, CONFIG, CONFIG::maxItemsPerSecond, () -> TAIL);

        TimeboxReport report = timebox.runUntil(at(30_000), operator, Algorithm.PREDICTIVE, EstimatorState.initial(),
                NEVER_STOP);

        assertThat(report.overrun()).isEqualTo(Duration.ZERO);
        assertThat(report.estimator().perItemMillis()).isBetween(9.9, 10.1);
        assertThat(operator.sizes).contains(CONFIG.maxBatch());
        assertThat(report.utilisation()).isGreaterThan(0.9);
    }

    @Test
    void without_it_the_tail_is_taken_for_item_cost_and_the_last_batch_ends_after_the_deadline() throws Exception {
        SettableClock clock = new SettableClock(T0);
        DistantOperator told = new DistantOperator(clock);
        new Timebox(clock, CONFIG, CONFIG::maxItemsPerSecond, () -> TAIL)
                .runUntil(at(30_000), told, Algorithm.PREDICTIVE, EstimatorState.initial(), NEVER_STOP);
        SettableClock other = new SettableClock(T0);
        DistantOperator blind = new DistantOperator(other);
        TimeboxReport report = new Timebox(other, CONFIG).runUntil(at(30_000), blind, Algorithm.PREDICTIVE,
                EstimatorState.initial(), NEVER_STOP);

        // The spread of per-item costs (the tail divided by ever other batch sizes) keeps the
        // batches small, and the last one, sized by items, ends a tail after its share of time.
        assertThat(report.estimator().perItemMillis()).isGreaterThan(10.5);
        assertThat(report.overrun()).isPositive();
    }
}
