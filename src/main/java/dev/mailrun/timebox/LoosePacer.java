package dev.mailrun.timebox;

import java.time.Duration;
import java.time.Instant;

/** LOOSE: a fixed batch while now is before the deadline. */
final class LoosePacer implements Pacer {

    private final int batchSize;
    private final CostModel model;
    private final Instant deadline;

    LoosePacer(int batchSize, CostModel model, Instant deadline) {
        this.batchSize = batchSize;
        this.model = model;
        this.deadline = deadline;
    }

    @Override
    public int nextBatchSize(Instant now, EstimatorState state) {
        return now.isBefore(deadline) ? batchSize : 0;
    }

    @Override
    public EstimatorState afterBatch(EstimatorState state, int items, Duration took) {
        // Keeps learning, so that a task can switch algorithms without losing calibration.
        return model.observe(state, items, took);
    }
}
