package dev.mailrun.campaign.importing;

/**
 * How an import runs.
 *
 * @param batchSize rows per transaction; two neighbouring batches are written at once
 */
public record ImportSettings(int batchSize) {

    public static final int DEFAULT_BATCH = 5_000;

    public ImportSettings {
        if (batchSize < 1) {
            throw new IllegalArgumentException("import batch size must be at least 1, got " + batchSize);
        }
    }

    public static ImportSettings defaults() {
        return new ImportSettings(DEFAULT_BATCH);
    }

    public ImportSettings withBatchSize(int rows) {
        return new ImportSettings(rows);
    }
}
