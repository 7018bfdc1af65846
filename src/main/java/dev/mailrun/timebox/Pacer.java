package dev.mailrun.timebox;

import java.time.Duration;
import java.time.Instant;

/** One algorithm's rule for the size of the next batch, including "no more batches". One per run. */
interface Pacer {

    /** Items for the next batch, or 0 when the deadline leaves no room for another. */
    int nextBatchSize(Instant now, EstimatorState state);

    /** The estimator state after a completed batch of {@code items} that took {@code took}. */
    EstimatorState afterBatch(EstimatorState state, int items, Duration took);

    static Pacer forRun(Algorithm algorithm, TimeboxConfig config, CostModel model, Instant deadline) {
        return switch (algorithm) {
            case LOOSE -> new LoosePacer(config.maxBatch(), model, deadline);
            case TIGHT -> new TightPacer(config.maxBatch(), model, deadline);
            case PREDICTIVE -> new PredictivePacer(config, model, deadline);
        };
    }
}
