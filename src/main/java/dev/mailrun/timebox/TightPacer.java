package dev.mailrun.timebox;

import java.time.Duration;
import java.time.Instant;

/**
 * TIGHT, the reference design: a fixed batch, unless now plus the mean duration of this run's
 * batches so far passes the deadline. The first batch runs whenever now is before the deadline.
 */
final class TightPacer implements Pacer {

    private final int batchSize;
    private final CostModel model;
    private final Instant deadline;
    private long batches;
    private long totalNanos;

    TightPacer(int batchSize, CostModel model, Instant deadline) {
        this.batchSize = batchSize;
        this.model = model;
        this.deadline = deadline;
    }

    @Override
    public int nextBatchSize(Instant now, EstimatorState state) {
        if (!now.isBefore(deadline)) {
            return 0;
        }
        Duration mean = batches == 0 ? Duration.ZERO : Duration.ofNanos(totalNanos / batches);
        return now.plus(mean).isAfter(deadline) ? 0 : batchSize;
    }

    @Override
    public EstimatorState afterBatch(EstimatorState state, int items, Duration took) {
        batches++;
        totalNanos += took.toNanos();
        return model.observe(state, items, took);
    }
}
