package dev.mailrun.campaign.importing;

import java.util.List;
import java.util.Optional;
import org.apache.commons.csv.CSVRecord;

/**
 * The byte limits of one row: each field ({@code import.max-field-bytes}), all its fields
 * together ({@code import.max-row-bytes}), and the row as stored, which one insert statement must
 * be able to carry ({@link StatementSize}). Sizes are UTF-8 bytes; they are counted exactly only
 * when three bytes per character would not already fit, so ordinary rows cost one length per field.
 */
final class RowSize {

    /** The columns of a stored row besides email, name and fields: ids, import id, line, time, framing. */
    static final int STORED_OVERHEAD = 128;

    private final List<String> columns;
    private final int maxFieldBytes;
    private final int maxRowBytes;
    private final StatementSize statement;

    RowSize(List<String> columns, ImportSettings settings, StatementSize statement) {
        this.columns = columns;
        this.maxFieldBytes = settings.maxFieldBytes();
        this.maxRowBytes = settings.maxRowBytes();
        this.statement = statement;
    }

    /** Why the row's fields are too large, or empty. The record has one field per column. */
    Optional<String> problem(CSVRecord record) {
        long chars = 0;
        for (int i = 0; i < record.size(); i++) {
            chars += record.get(i).length();
        }
        if (chars * Utf8.MAX_BYTES_PER_CHAR <= Math.min(maxFieldBytes, maxRowBytes)) {
            return Optional.empty();
        }
        boolean countRow = chars * Utf8.MAX_BYTES_PER_CHAR > maxRowBytes;
        long rowBytes = 0;
        for (int i = 0; i < record.size(); i++) {
            String value = record.get(i);
            boolean fits = (long) value.length() * Utf8.MAX_BYTES_PER_CHAR <= maxFieldBytes;
            long bytes = fits && !countRow ? 0 : Utf8.length(value);
            if (!fits && bytes > maxFieldBytes) {
                return Optional.of("field '" + columns.get(i).strip() + "' holds " + bytes + " bytes, more than the "
                        + maxFieldBytes + " allowed (import.max-field-bytes)");
            }
            rowBytes += bytes;
        }
        if (countRow && rowBytes > maxRowBytes) {
            return Optional.of("the row holds " + rowBytes + " bytes, more than the " + maxRowBytes
                    + " allowed (import.max-row-bytes)");
        }
        return Optional.empty();
    }

    /** The bytes a row takes in an insert statement: an upper bound, exact when the bound would not fit one. */
    long stored(String email, String name, String fieldsJson) {
        long bound = STORED_OVERHEAD + email.length() + (long) Utf8.MAX_BYTES_PER_CHAR * (length(name) + length(fieldsJson));
        if (bound <= statement.bytes()) {
            return bound;
        }
        return STORED_OVERHEAD + email.length() + (name == null ? 0 : Utf8.length(name))
                + (fieldsJson == null ? 0 : Utf8.length(fieldsJson));
    }

    /** Why a row taking {@code storedBytes} cannot be inserted on this server at all, or empty. */
    Optional<String> storedProblem(long storedBytes) {
        if (storedBytes <= statement.bytes()) {
            return Optional.empty();
        }
        return Optional.of("the row takes " + storedBytes + " bytes as stored, more than one statement may carry on this "
                + "database server (" + statement.bytes() + ": half its max_allowed_packet of " + statement.maxAllowedPacket() + ")");
    }

    private static long length(String s) {
        return s == null ? 0 : s.length();
    }
}
