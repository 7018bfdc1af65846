package dev.mailrun.timebox;

import java.time.Duration;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * The cost of a batch: {@code overhead + items × perItem}, where perItem is the estimator's
 * pessimistic cost, never below the time the rate limit allows per item; and what its items leave
 * behind: inFlight, the time the batch's last item still needs once it was started (against a
 * relay far away, the round trips of one message). A batch ends once its items are started; their
 * last replies come while the next batch runs, so only the run's last batch waits for them: every
 * batch is sized to leave inFlight before the deadline, since any may be the last, and the per-item
 * cost is learned from the batches' own time. The rate limit and the in-flight time are read at
 * every prediction, so a rate that changes during a run, or a relay that slows down, changes the
 * next batch.
 */
final class CostModel {

    private static final double NANOS_PER_MILLI = 1_000_000.0;

    private final Duration overhead;
    private final DoubleSupplier maxItemsPerSecond;
    private final Duration minTimeout;
    private final Supplier<Duration> inFlight;

    CostModel(TimeboxConfig config, DoubleSupplier maxItemsPerSecond) {
        this(config, maxItemsPerSecond, () -> Duration.ZERO);
    }

    CostModel(TimeboxConfig config, DoubleSupplier maxItemsPerSecond, Supplier<Duration> inFlight) {
        this.overhead = config.batchOverhead();
        this.maxItemsPerSecond = maxItemsPerSecond;
        this.minTimeout = config.minTimeout();
        this.inFlight = inFlight;
    }

    Duration overhead() {
        return overhead;
    }

    /** What a started item still needs after its start; never negative. */
    Duration inFlight() {
        Duration d = inFlight.get();
        return d == null || d.isNegative() ? Duration.ZERO : d;
    }

    /** The pessimistic cost of one item. */
    Duration perItemUpper(EstimatorState state) {
        return Duration.ofNanos(Math.round(perItemUpperMillis(state) * NANOS_PER_MILLI));
    }

    /**
     * How many items fit into {@code remaining} after the overhead, at the pessimistic cost; none
     * unless the first item would pass the batch's own check ({@link RunBudget#hasTimeForAnotherItem}):
     * after the batch's work before its items (its share of the overhead, at most all of it), the
     * item at its pessimistic cost with the minimum timeout left, then the commit reserve. A batch
     * that could not start one item would only take work and give it back. The minimum timeout and
     * the in-flight time are both the time an item has after its start: only the larger of the two
     * is kept free, not their sum.
     */
    int itemsThatFit(EstimatorState state, Duration remaining) {
        Duration tail = inFlight();
        long forItems = remaining.minus(overhead).minus(tail).toNanos();
        double perItem = perItemUpperMillis(state) * NANOS_PER_MILLI;
        long timeoutBeyondTail = Math.max(0, minTimeout.minus(tail).toNanos());
        if (forItems < overhead.toNanos() + perItem + timeoutBeyondTail) {
            return 0;
        }
        if (perItem == 0) {
            // Uncalibrated without a rate limit: any count fits.
            return Integer.MAX_VALUE;
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.floor(forItems / perItem));
    }

    /**
     * The per-item cost a finished batch shows, or a negative value when it processed nothing. The
     * batch ended when its items were started: its time holds no in-flight tail.
     */
    double sampleMillis(int items, Duration took) {
        if (items == 0) {
            return -1;
        }
        long forItems = Math.max(0, took.minus(overhead).toNanos());
        return forItems / NANOS_PER_MILLI / items;
    }

    /** The state after a batch; unchanged when the batch processed nothing, as it shows no cost. */
    EstimatorState observe(EstimatorState state, int items, Duration took) {
        return observe(state, items, took, 0);
    }

    /** As {@link #observe(EstimatorState, int, Duration)}, with the rate's time per item then ({@link EstimatorState#observe(double, double)}). */
    EstimatorState observe(EstimatorState state, int items, Duration took, double floorMillis) {
        double sample = sampleMillis(items, took);
        return sample < 0 ? state : state.observe(sample, floorMillis);
    }

    /** The time the rate limit allows per item, in nanoseconds; 0 without a limit. */
    double rateFloorNanos() {
        double rate = TimeboxConfig.checkedRate(maxItemsPerSecond.getAsDouble());
        return rate == 0 ? 0 : 1e9 / rate;
    }

    private double perItemUpperMillis(EstimatorState state) {
        double rate = TimeboxConfig.checkedRate(maxItemsPerSecond.getAsDouble());
        return Math.max(state.perItemUpperMillis(), rate == 0 ? 0 : 1000.0 / rate);
    }
}
