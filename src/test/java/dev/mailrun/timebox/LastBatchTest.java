package dev.mailrun.timebox;

import static dev.mailrun.timebox.TimeboxFixtures.NEVER_STOP;
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
 * The end of a run under a rate limit, with an operator that, like the SMTP pool, starts an item
 * only when its rate slot and the minimum timeout after it fit before the batch's commit reserve.
 */
class LastBatchTest {

    private static final Duration OVERHEAD = ms(100);
    private static final Duration MIN_TIMEOUT = ms(250);
    /** 50 items per second: one every 20 ms. */
    private static final Duration SLOT = ms(20);

    private final SettableClock clock = new SettableClock(T0);
    private final List<Integer> done = new ArrayList<>();

    private final BatchOperator poolLike = budget -> {
        int items = 0;
        clock.advance(OVERHEAD.dividedBy(2));
        while (items < budget.maxItems() && budget.remaining().minus(OVERHEAD).compareTo(SLOT.plus(MIN_TIMEOUT)) >= 0) {
            clock.advance(SLOT);
            items++;
        }
        clock.advance(OVERHEAD.dividedBy(2));
        done.add(items);
        return BatchResult.more(items);
    };

    @Test
    void a_run_cut_by_its_deadline_under_the_rate_limit_ends_on_the_deadline_without_a_batch_that_does_nothing()
            throws Exception {
        for (long deadline = 3_000; deadline < 3_400; deadline += 7) {
            done.clear();
            clock.set(T0);
            Timebox timebox = new Timebox(clock, new TimeboxConfig(10, 1, 100, 50, 1.5, OVERHEAD, MIN_TIMEOUT));

            TimeboxReport report = timebox.runUntil(at(deadline), poolLike, Algorithm.PREDICTIVE, EstimatorState.initial(),
                    NEVER_STOP);

            assertThat(report.endReason()).as("deadline at %d ms", deadline).isEqualTo(EndReason.DEADLINE);
            assertThat(done).as("items of each batch, deadline at %d ms", deadline).doesNotContain(0);
            assertThat(report.items()).as("deadline at %d ms", deadline).isGreaterThan(100);
        }
    }
}
