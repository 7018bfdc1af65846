package dev.mailrun.timebox;

import java.time.Duration;
import java.util.Objects;

/**
 * How batches are sized and timed. Validated on construction, so a bad value fails at start-up
 * with a message naming it rather than as a strange run later.
 *
 * @param calibrationBatch  first batch when the estimator has no history; small, so an unknown
 *                          cost cannot blow the deadline
 * @param minBatch          smallest batch worth its overhead; PREDICTIVE stops when fewer fit
 * @param maxBatch          largest batch; also the fixed batch size of LOOSE and TIGHT
 * @param maxItemsPerSecond the sending rate limit, a floor on the cost of an item; 0 means none. A
 *                          {@link Timebox} built with a rate source reads that source instead, at
 *                          every prediction (a rate that changes during a run)
 * @param growthFactor      how much the batch cap may grow after a batch that was not an outlier
 *                          (greater than 1); growth is gradual, shrinking after an outlier is not
 * @param batchOverhead     the fixed cost of a batch outside its items (claim and commit). Err
 *                          high: too high costs a little utilisation, too low lets a shrunken last
 *                          batch overrun by the difference. Also reserved inside a batch for the commit.
 * @param minTimeout        the floor of every timeout the budget hands out (see {@link BatchBudget})
 */
public record TimeboxConfig(
        int calibrationBatch,
        int minBatch,
        int maxBatch,
        double maxItemsPerSecond,
        double growthFactor,
        Duration batchOverhead,
        Duration minTimeout) {

    public TimeboxConfig {
        Objects.requireNonNull(batchOverhead, "batchOverhead must not be null");
        Objects.requireNonNull(minTimeout, "minTimeout must not be null");
        if (minBatch < 1) {
            throw new IllegalArgumentException("minBatch must be at least 1, was " + minBatch);
        }
        if (maxBatch < minBatch) {
            throw new IllegalArgumentException(
                    "maxBatch must be at least minBatch (" + minBatch + "), was " + maxBatch);
        }
        if (calibrationBatch < minBatch || calibrationBatch > maxBatch) {
            throw new IllegalArgumentException("calibrationBatch must be between minBatch (" + minBatch
                    + ") and maxBatch (" + maxBatch + "), was " + calibrationBatch);
        }
        checkedRate(maxItemsPerSecond);
        if (!Double.isFinite(growthFactor) || growthFactor <= 1.0) {
            throw new IllegalArgumentException(
                    "growthFactor must be a finite number greater than 1, was " + growthFactor);
        }
        if (batchOverhead.isNegative()) {
            throw new IllegalArgumentException("batchOverhead must not be negative, was " + batchOverhead);
        }
        if (minTimeout.isNegative() || minTimeout.isZero()) {
            throw new IllegalArgumentException("minTimeout must be positive, was " + minTimeout);
        }
    }

    /** The rate limit if it is valid: 0 (none) or a positive finite number. Also applied to a rate source's every value. */
    static double checkedRate(double maxItemsPerSecond) {
        if (!Double.isFinite(maxItemsPerSecond) || maxItemsPerSecond < 0) {
            throw new IllegalArgumentException(
                    "maxItemsPerSecond must be 0 (no limit) or a positive number, was " + maxItemsPerSecond);
        }
        return maxItemsPerSecond;
    }

    /** Calibrate with 10 items, grow by half up to 100, 20 ms overhead, no rate limit, 10 ms timeout floor. */
    static TimeboxConfig defaults() {
        return new TimeboxConfig(10, 1, 100, 0, 1.5, Duration.ofMillis(20), Duration.ofMillis(10));
    }
}
