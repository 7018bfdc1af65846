package dev.mailrun.campaign.suppression;

import dev.mailrun.campaign.model.EmailAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of an import read since the last write, in line order, bounded so that one
 * {@code INSERT IGNORE} carries them all: at most {@code maxRows} lines (valid or not, so that
 * rejects held for line order are bounded too) and at most {@code maxBytes} of bound values.
 * A later line with an address already in the batch is held as a duplicate of that row.
 */
final class ImportBatch {

    /** Bound values of one row besides address and source: reason, time literal, import id, line, separators. */
    static final int ROW_OVERHEAD_BYTES = 96;

    /** What limits one batch: a statement of {@code maxRows} rows and {@code maxBytes} of values at most. */
    record Limits(int maxRows, int maxBytes) {
        static final Limits DEFAULT = new Limits(1_000, 256 * 1024);

        Limits {
            if (maxRows < 1 || maxBytes < 1) {
                throw new IllegalArgumentException("batch limits must be positive, got " + maxRows + " rows, " + maxBytes + " bytes");
            }
        }
    }

    /** One line of the batch. */
    sealed interface Line permits Row, Duplicate, Invalid {
        long line();
    }

    /** A valid address first seen in this batch; its fate is set once the batch is written. */
    static final class Row implements Line {
        final long line;
        final String raw;
        final String key;

        Row(long line, String raw, String key) {
            this.line = line;
            this.raw = raw;
            this.key = key;
        }

        @Override
        public long line() {
            return line;
        }
    }

    /** A later line repeating the address of {@code first}. */
    record Duplicate(long line, String raw, Row first) implements Line {}

    /** A line rejected on reading, before the database. */
    record Invalid(long line, String raw, SuppressionRejectReason reason, String detail) implements Line {}

    private final Limits limits;
    private final int rowBytesAtMost;
    private final int sourceBytes;
    private final List<Line> lines = new ArrayList<>();
    private final Map<String, Row> byKey = new HashMap<>();
    private final List<Row> rows = new ArrayList<>();
    private long bytes;

    ImportBatch(Limits limits, String source) {
        this.limits = limits;
        this.sourceBytes = source.getBytes(StandardCharsets.UTF_8).length;
        // Addresses are ASCII (EmailAddress keeps local parts ASCII and domains in punycode), so
        // their octets are their characters.
        this.rowBytesAtMost = EmailAddress.MAX_ADDRESS_OCTETS + sourceBytes + ROW_OVERHEAD_BYTES;
    }

    void add(long line, String raw, String key) {
        Row first = byKey.get(key);
        if (first != null) {
            lines.add(new Duplicate(line, raw, first));
            return;
        }
        Row row = new Row(line, raw, key);
        byKey.put(key, row);
        rows.add(row);
        lines.add(row);
        bytes += key.length() + sourceBytes + ROW_OVERHEAD_BYTES;
    }

    void reject(long line, String raw, SuppressionRejectReason reason, String detail) {
        lines.add(new Invalid(line, raw, reason, detail));
    }

    /** True when the next line might not fit: write the batch before reading on. */
    boolean full() {
        return lines.size() >= limits.maxRows() || bytes + rowBytesAtMost > limits.maxBytes();
    }

    boolean isEmpty() {
        return lines.isEmpty();
    }

    /** The rows to insert, one per address, in line order. */
    List<Row> rows() {
        return rows;
    }

    /** Every line of the batch, in line order. */
    List<Line> lines() {
        return lines;
    }

    long valueBytes() {
        return bytes;
    }
}
