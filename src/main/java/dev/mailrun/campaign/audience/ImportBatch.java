package dev.mailrun.campaign.audience;

import dev.mailrun.campaign.importing.CheckedRows;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of one batch of an import, one per address, and the later rows of the batch repeating one
 * of them. A batch holds at most {@value #MAX_ROWS} rows and about {@value #MAX_BYTES} bytes of them,
 * so each of its statements carries the whole batch and stays far below any server's packet limit.
 */
final class ImportBatch {

    static final int MAX_ROWS = 5_000;
    static final long MAX_BYTES = 4L << 20;
    /** The columns of a row besides address, name and attributes: ids, import id, line, times, framing. */
    private static final int ROW_OVERHEAD = 128;

    /** A row repeating the address of a row of this batch. */
    record Repeat(long line, String rawEmail, String key) {}

    private final Map<String, CheckedRows.Accepted> rows = new LinkedHashMap<>();
    private final List<Repeat> repeats = new ArrayList<>();
    private long bytes;

    void add(CheckedRows.Accepted row) {
        if (rows.containsKey(row.key())) {
            repeats.add(new Repeat(row.line(), row.rawEmail(), row.key()));
            return;
        }
        rows.put(row.key(), row);
        // At most four UTF-8 bytes a character: a bound, never counted exactly.
        bytes += ROW_OVERHEAD + row.email().length() + 4L * (length(row.name()) + length(row.fieldsJson()));
    }

    boolean full() {
        return rows.size() >= MAX_ROWS || bytes >= MAX_BYTES;
    }

    List<CheckedRows.Accepted> rows() {
        return List.copyOf(rows.values());
    }

    List<Repeat> repeats() {
        return List.copyOf(repeats);
    }

    private static long length(String s) {
        return s == null ? 0 : s.length();
    }
}
