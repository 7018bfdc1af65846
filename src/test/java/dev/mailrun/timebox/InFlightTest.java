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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Batches whose items are paced at 10 ms each and end once their items are started, the last
 * item still needing 300 ms after its start, as against a relay far away: told of that in-flight
 * time, the timebox learns the per-item cost from the batches, grows them, and sizes each so that
 * its last item ends before the deadline.
 */
class InFlightTest {

    private static final Duration TAIL = ms(300);
    private static final Instant DEADLINE = at(30_000);

    /** Items at 10 ms each; the batch ends when its last item is started, which ends 300 ms later. */
    private static final class DistantOperator implements BatchOperator {
        final List<Integer> sizes = new ArrayList<>();
        final SettableClock clock;
        Instant lastItemEnds = Instant.MIN;

        DistantOperator(SettableClock clock) {
            this.clock = clock;
        }

        @Override
        public BatchResult runBatch(BatchBudget budget) {
            sizes.add(budget.maxItems());
            clock.advance(OVERHEAD.dividedBy(2));
            clock.advance(ms(10).multipliedBy(budget.maxItems()));
            lastItemEnds = clock.instant().plus(TAIL);
            clock.advance(OVERHEAD.dividedBy(2));
            return BatchResult.more(budget.maxItems());
        }
    }

    @Test
    void told_the_in_flight_time_the_batches_grow_to_the_maximum_and_the_last_item_ends_before_the_deadline() throws Exception {
        SettableClock clock = new SettableClock(T0);
        DistantOperator operator = new DistantOperator(clock);
        Timebox timebox = new Timebox(clock, CONFIG, CONFIG::maxItemsPerSecond, () -> TAIL);

        TimeboxReport report = timebox.runUntil(DEADLINE, operator, Algorithm.PREDICTIVE, EstimatorState.initial(),
                NEVER_STOP);

        assertThat(report.overrun()).isEqualTo(Duration.ZERO);
        assertThat(operator.lastItemEnds).isBeforeOrEqualTo(DEADLINE);
        assertThat(report.estimator().perItemMillis()).isBetween(9.9, 10.1);
        assertThat(operator.sizes).contains(CONFIG.maxBatch());
        assertThat(report.utilisation()).isGreaterThan(0.9);
    }

    @Test
    void without_it_the_last_batch_leaves_no_room_and_its_last_item_ends_after_the_deadline() throws Exception {
        SettableClock clock = new SettableClock(T0);
        DistantOperator blind = new DistantOperator(clock);

        TimeboxReport report = new Timebox(clock, CONFIG).runUntil(DEADLINE, blind, Algorithm.PREDICTIVE,
                EstimatorState.initial(), NEVER_STOP);

        assertThat(report.overrun()).isEqualTo(Duration.ZERO);
        assertThat(blind.lastItemEnds).isAfter(DEADLINE);
    }
    @Test
    void a_batch_keeps_the_larger_of_the_in_flight_time_and_the_minimum_timeout_free_after_its_first_item_not_both() {
        EstimatorState state = new EstimatorState(50, 10, 0, 20);
        // 300 ms in flight: the 5 ms minimum timeout lies within it. 10 overhead + 300 + 10 overhead + 10 item.
        CostModel distant = new CostModel(CONFIG, CONFIG::maxItemsPerSecond, () -> TAIL);
        assertThat(distant.itemsThatFit(state, ms(330))).isEqualTo(2);
        assertThat(distant.itemsThatFit(state, ms(329))).isZero();
        // 2 ms in flight: the minimum timeout reaches 3 ms beyond it. 10 + 2 + 10 + 10 + 3.
        CostModel near = new CostModel(CONFIG, CONFIG::maxItemsPerSecond, () -> ms(2));
        assertThat(near.itemsThatFit(state, ms(35))).isEqualTo(2);
        assertThat(near.itemsThatFit(state, ms(34))).isZero();
    }
}
