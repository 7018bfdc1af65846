package dev.mailrun.timebox;

/**
 * The outcome of one batch.
 *
 * @param items     items processed in the batch (0 or more)
 * @param exhausted true when nothing is left to do, so the run can end
 */
public record BatchResult(int items, boolean exhausted) {

    public BatchResult {
        if (items < 0) {
            throw new IllegalArgumentException("items must be 0 or more, was " + items);
        }
    }

    /** Processed {@code items}; there may be more work. */
    public static BatchResult more(int items) {
        return new BatchResult(items, false);
    }

    /** Processed {@code items}; nothing is left to do. */
    public static BatchResult done(int items) {
        return new BatchResult(items, true);
    }
}
