package dev.mailrun.bench;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.timebox.BatchBudget;
import dev.mailrun.timebox.BatchOperator;
import dev.mailrun.timebox.BatchResult;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;

/**
 * Works like the sending operator, on a virtual clock: claim, items, commit. Work never runs out.
 * With budget checks on, it stops before an item the budget has no time for, and gives each item
 * an item timeout: an item slower than its timeout is cut off there, not done, and ends the batch.
 */
final class SyntheticOperator implements BatchOperator {

    private static final Duration WANTED_ITEM_TIMEOUT = Duration.ofSeconds(30);

    private final SettableClock clock;
    private final Workload workload;
    private final SplittableRandom random;
    private final Instant halfway;
    private final boolean checksBudget;
    private long[] costs = new long[0];
    private long[] starts = new long[0];
    long cutItems;

    SyntheticOperator(SettableClock clock, Workload workload, SplittableRandom random, Instant halfway,
                      boolean checksBudget) {
        this.clock = clock;
        this.workload = workload;
        this.random = random;
        this.halfway = halfway;
        this.checksBudget = checksBudget;
    }

    @Override
    public BatchResult runBatch(BatchBudget budget) {
        clock.advance(Duration.ofNanos(overheadPartNanos())); // claim
        int n = budget.maxItems();
        Instant itemsStart = clock.instant();
        drawCosts(n, itemsStart);
        int done = checksBudget ? itemsWithinBudget(budget, n, itemsStart) : allItems(n, itemsStart);
        clock.advance(Duration.ofNanos(overheadPartNanos())); // commit
        return BatchResult.more(done);
    }

    private int allItems(int n, Instant itemsStart) {
        clock.set(itemsStart.plusNanos(starts[n - 1] + costs[n - 1]));
        return n;
    }

    private int itemsWithinBudget(BatchBudget budget, int n, Instant itemsStart) {
        // Shortcut, same outcome as stepping: if the last item is admitted and ends within its
        // timeout, every earlier item was admitted and ended within its (larger) timeout too.
        Instant lastStart = itemsStart.plusNanos(starts[n - 1]);
        clock.set(lastStart);
        if (budget.hasTimeForAnotherItem() && fitsTimeout(budget, n - 1) && allBelowWanted(n)) {
            clock.advance(Duration.ofNanos(costs[n - 1]));
            return n;
        }
        clock.set(itemsStart);
        for (int i = 0; i < n; i++) {
            if (!budget.hasTimeForAnotherItem()) {
                return i;
            }
            Duration timeout = budget.itemTimeoutFor(WANTED_ITEM_TIMEOUT);
            if (costs[i] > timeout.toNanos()) {
                clock.advance(timeout);
                cutItems++;
                return i;
            }
            clock.advance(Duration.ofNanos(costs[i]));
        }
        return n;
    }

    private boolean fitsTimeout(BatchBudget budget, int i) {
        return costs[i] <= budget.itemTimeoutFor(WANTED_ITEM_TIMEOUT).toNanos();
    }

    private boolean allBelowWanted(int n) {
        for (int i = 0; i < n; i++) {
            if (costs[i] > WANTED_ITEM_TIMEOUT.toNanos()) {
                return false;
            }
        }
        return true;
    }

    /** Item costs and start offsets if every item is done; the speed can depend on the start time. */
    private void drawCosts(int n, Instant itemsStart) {
        if (costs.length < n) {
            costs = new long[n];
            starts = new long[n];
        }
        double factor = workload.batchFactor(random);
        long offset = 0;
        long halfwayOffset = Duration.between(itemsStart, halfway).toNanos();
        for (int i = 0; i < n; i++) {
            starts[i] = offset;
            costs[i] = workload.itemNanos(random, factor, offset >= halfwayOffset);
            offset += costs[i];
        }
    }

    /** Claim or commit: U(2, 5) ms each, so a batch's overhead stays below the configured 12 ms. */
    private long overheadPartNanos() {
        return Math.round(random.nextDouble(2, 5) * Workload.MS);
    }
}
