package dev.mailrun.campaign.importing;

/**
 * How an import runs, validated when built.
 *
 * @param batchSize     rows per transaction; two neighbouring batches are written at once
 * @param maxFieldBytes the largest value one field of a row may hold, in UTF-8 bytes
 * @param maxRowBytes   the largest row, all its fields together, in UTF-8 bytes
 */
public record ImportSettings(int batchSize, int maxFieldBytes, int maxRowBytes) {

    public static final int DEFAULT_BATCH = 5_000;
    static final int DEFAULT_MAX_FIELD_BYTES = 64 * 1024;
    static final int DEFAULT_MAX_ROW_BYTES = 256 * 1024;
    /** The limits' range: room for any address, and rows a statement still carries comfortably. */
    public static final int MIN_LIMIT_BYTES = 1024;
    public static final int MAX_LIMIT_BYTES = 4 * 1024 * 1024;

    public ImportSettings {
        if (batchSize < 1) {
            throw new IllegalArgumentException("import batch size must be at least 1, got " + batchSize);
        }
        requireInRange("field", maxFieldBytes);
        requireInRange("row", maxRowBytes);
        if (maxFieldBytes > maxRowBytes) {
            throw new IllegalArgumentException("the largest import field (" + maxFieldBytes
                    + " bytes) must not exceed the largest row (" + maxRowBytes + " bytes)");
        }
    }

    public static ImportSettings defaults() {
        return new ImportSettings(DEFAULT_BATCH, DEFAULT_MAX_FIELD_BYTES, DEFAULT_MAX_ROW_BYTES);
    }

    public ImportSettings withBatchSize(int rows) {
        return new ImportSettings(rows, maxFieldBytes, maxRowBytes);
    }

    public ImportSettings withLimits(int fieldBytes, int rowBytes) {
        return new ImportSettings(batchSize, fieldBytes, rowBytes);
    }

    private static void requireInRange(String what, int bytes) {
        if (bytes < MIN_LIMIT_BYTES || bytes > MAX_LIMIT_BYTES) {
            throw new IllegalArgumentException("the largest import " + what + " must be between " + MIN_LIMIT_BYTES
                    + " and " + MAX_LIMIT_BYTES + " bytes, got " + bytes);
        }
    }
}
