package dev.mailrun.timebox;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the timebox has learned about the cost of one item, carried from run to run in the sending
 * task's metadata so that a run starts calibrated. Immutable; plain fields so that it serialises
 * as is, and {@link #toMap()}/{@link #fromMap(Map)} for callers that store a map.
 *
 * <p>The cost is smoothed the way TCP smooths round-trip times (RFC 6298): a mean and a mean
 * deviation, each an exponentially weighted average of per-batch samples. The pessimistic cost is
 * {@code mean + 4 × deviation}: it jumps after a slow outlier and relaxes slowly afterwards.
 *
 * @param samples         batches observed; 0 means uncalibrated
 * @param perItemMillis   smoothed cost of one item in milliseconds, excluding the batch overhead
 * @param deviationMillis smoothed mean deviation of that cost in milliseconds
 * @param batchCap        largest batch the next PREDICTIVE batch may ask for; 0 means not yet set
 */
public record EstimatorState(long samples, double perItemMillis, double deviationMillis, int batchCap) {

    static final String SAMPLES = "samples";
    static final String PER_ITEM_MILLIS = "perItemMillis";
    static final String DEVIATION_MILLIS = "deviationMillis";
    static final String BATCH_CAP = "batchCap";

    // RFC 6298 gains: the mean follows by 1/8, the deviation by 1/4, the bound is 4 deviations out.
    private static final double MEAN_GAIN = 1.0 / 8;
    private static final double DEVIATION_GAIN = 1.0 / 4;
    private static final double DEVIATIONS_IN_BOUND = 4;

    public EstimatorState {
        if (samples < 0) {
            throw new IllegalArgumentException("samples must be 0 or more, was " + samples);
        }
        requireCost(PER_ITEM_MILLIS, perItemMillis);
        requireCost(DEVIATION_MILLIS, deviationMillis);
        if (batchCap < 0) {
            throw new IllegalArgumentException("batchCap must be 0 or more, was " + batchCap);
        }
    }

    /** No history: the next run starts with a calibration batch. */
    public static EstimatorState initial() {
        return new EstimatorState(0, 0, 0, 0);
    }

    /** Whether at least one batch has been observed. */
    boolean calibrated() {
        return samples > 0;
    }

    /** The pessimistic cost of one item: mean plus four deviations; 0 when uncalibrated. */
    double perItemUpperMillis() {
        return perItemMillis + DEVIATIONS_IN_BOUND * deviationMillis;
    }

    /** This state after one more per-item cost sample. */
    EstimatorState observe(double sampleMillis) {
        return observe(sampleMillis, 0);
    }

    /**
     * This state after one more per-item cost sample, when no item can have cost less than
     * {@code floorMillis} (the time a rate limit allows per item): the mean learns the sample as
     * it is, the deviation only what lies above the floor. Below it the rate, not the item, sets
     * the pace, and what a sample there says is the batch's overhead spread over few items (the
     * run's last batches are small): counted as deviation, it would widen the pessimistic cost
     * of items that all take the rate's time.
     */
    EstimatorState observe(double sampleMillis, double floorMillis) {
        requireCost("sample", sampleMillis);
        if (!calibrated()) {
            return new EstimatorState(1, sampleMillis, sampleMillis / 2, batchCap);
        }
        // The deviation is updated with the old mean, as RFC 6298 orders it.
        double floor = Math.max(0, floorMillis);
        double deviation = (1 - DEVIATION_GAIN) * deviationMillis
                + DEVIATION_GAIN * Math.abs(Math.max(perItemMillis, floor) - Math.max(sampleMillis, floor));
        double mean = (1 - MEAN_GAIN) * perItemMillis + MEAN_GAIN * sampleMillis;
        return new EstimatorState(samples + 1, mean, deviation, batchCap);
    }

    EstimatorState withBatchCap(int cap) {
        return new EstimatorState(samples, perItemMillis, deviationMillis, cap);
    }

    /** The fields under their component names, numbers only; ready for any JSON writer. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put(SAMPLES, samples);
        map.put(PER_ITEM_MILLIS, perItemMillis);
        map.put(DEVIATION_MILLIS, deviationMillis);
        map.put(BATCH_CAP, batchCap);
        return map;
    }

    /**
     * Reads what {@link #toMap()} wrote, with numbers of any boxed type (a JSON reader may give
     * Integer, Long or Double). A missing map, a missing key or an unusable value gives
     * {@link #initial()}: stored metadata that cannot be trusted must cost one calibration batch,
     * not a failed task.
     */
    public static EstimatorState fromMap(Map<String, ?> map) {
        if (map == null) {
            return initial();
        }
        Double samples = number(map.get(SAMPLES));
        Double perItem = number(map.get(PER_ITEM_MILLIS));
        Double deviation = number(map.get(DEVIATION_MILLIS));
        Double cap = number(map.get(BATCH_CAP));
        if (samples == null || perItem == null || deviation == null || cap == null
                || samples < 0 || perItem < 0 || deviation < 0 || cap < 0 || cap > Integer.MAX_VALUE) {
            return initial();
        }
        return new EstimatorState(samples.longValue(), perItem, deviation, cap.intValue());
    }

    private static Double number(Object value) {
        if (value instanceof Number number) {
            double d = number.doubleValue();
            return Double.isFinite(d) ? d : null;
        }
        return null;
    }

    private static void requireCost(String name, double millis) {
        if (!Double.isFinite(millis) || millis < 0) {
            throw new IllegalArgumentException(name + " must be a finite number of milliseconds, 0 or more, was " + millis);
        }
    }
}
