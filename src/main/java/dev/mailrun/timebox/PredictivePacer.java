package dev.mailrun.timebox;

import java.time.Duration;
import java.time.Instant;

/**
 * PREDICTIVE:
 * <ol>
 *   <li>The next batch is as many items as fit before the deadline at the pessimistic per-item
 *       cost (mean + 4 deviations, never below the rate limit) after the fixed overhead, so the
 *       last batches shrink to fill the window instead of being skipped.</li>
 *   <li>It is also capped. Without history the cap is the calibration batch. After a batch whose
 *       per-item cost exceeded the previous pessimistic cost (a slow outlier) the cap drops at once
 *       to the items that batch could have done in its predicted time; otherwise it grows by the
 *       growth factor, up to the maximum batch.</li>
 *   <li>The run stops when fewer than the minimum batch fit.</li>
 * </ol>
 */
final class PredictivePacer implements Pacer {

    private final TimeboxConfig config;
    private final CostModel model;
    private final Instant deadline;
    /** The time per item the rate limit allowed when the last batch was sized; 0 without a limit. */
    private double sizedAtFloorMillis;

    PredictivePacer(TimeboxConfig config, CostModel model, Instant deadline) {
        this.config = config;
        this.model = model;
        this.deadline = deadline;
    }

    @Override
    public int nextBatchSize(Instant now, EstimatorState state) {
        Duration remaining = Duration.between(now, deadline);
        sizedAtFloorMillis = model.rateFloorNanos() / 1e6;
        int size = Math.min(cap(state), model.itemsThatFit(state, remaining));
        return size >= config.minBatch() ? size : 0;
    }

    @Override
    public EstimatorState afterBatch(EstimatorState state, int items, Duration took) {
        // The rate may have changed while the batch ran: the lower of its limits then and now.
        EstimatorState observed = model.observe(state, items, took,
                Math.min(sizedAtFloorMillis, model.rateFloorNanos() / 1e6));
        if (items == 0) {
            return observed;
        }
        int cap = cap(state);
        double sample = model.sampleMillis(items, took);
        double expected = state.perItemUpperMillis();
        int next;
        if (state.calibrated() && sample > expected) {
            next = (int) Math.floor(items * expected / sample);
        } else {
            next = (int) Math.min(Integer.MAX_VALUE, Math.ceil(cap * config.growthFactor()));
        }
        return observed.withBatchCap(clamp(next));
    }

    private int cap(EstimatorState state) {
        // A stored cap may come from another configuration; clamp rather than trust it.
        return state.calibrated() && state.batchCap() > 0 ? clamp(state.batchCap()) : config.calibrationBatch();
    }

    private int clamp(int size) {
        return Math.max(config.minBatch(), Math.min(config.maxBatch(), size));
    }
}
