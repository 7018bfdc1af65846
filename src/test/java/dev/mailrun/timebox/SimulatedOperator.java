package dev.mailrun.timebox;

import dev.mailrun.testing.SettableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Pretends to work by moving the clock: each batch costs a fixed overhead plus a per-item cost
 * chosen by batch number (0-based). Records the budget of every batch it was given.
 */
final class SimulatedOperator implements BatchOperator {

    private final SettableClock clock;
    private final Duration overhead;
    private final IntFunction<Duration> perItemForBatch;
    private final boolean checksBudget;
    private long itemsLeft = Long.MAX_VALUE;
    final List<Integer> askedSizes = new ArrayList<>();
    final List<Integer> doneSizes = new ArrayList<>();

    SimulatedOperator(SettableClock clock, Duration overhead, IntFunction<Duration> perItemForBatch,
                      boolean checksBudget) {
        this.clock = clock;
        this.overhead = overhead;
        this.perItemForBatch = perItemForBatch;
        this.checksBudget = checksBudget;
    }

    static SimulatedOperator constant(SettableClock clock, Duration overhead, Duration perItem) {
        return new SimulatedOperator(clock, overhead, batch -> perItem, false);
    }

    SimulatedOperator withItems(long items) {
        this.itemsLeft = items;
        return this;
    }

    @Override
    public BatchResult runBatch(BatchBudget budget) {
        int batch = askedSizes.size();
        askedSizes.add(budget.maxItems());
        Duration perItem = perItemForBatch.apply(batch);
        clock.advance(overhead.dividedBy(2));
        int done = 0;
        while (done < budget.maxItems() && itemsLeft > 0) {
            if (checksBudget && !budget.hasTimeForAnotherItem()) {
                break;
            }
            clock.advance(perItem);
            done++;
            itemsLeft--;
        }
        clock.advance(overhead.dividedBy(2));
        doneSizes.add(done);
        return itemsLeft == 0 ? BatchResult.done(done) : BatchResult.more(done);
    }
}
