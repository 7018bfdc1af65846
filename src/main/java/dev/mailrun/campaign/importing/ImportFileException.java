package dev.mailrun.campaign.importing;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The file as a whole cannot be imported (not CSV, no email column); nothing was imported. The
 * message names the file; {@link #reason()} is the same without it, for a caller that names the file
 * otherwise (an upload, whose path is the server's temporary file).
 */
public final class ImportFileException extends ImportRefusedException {

    /**
     * A file without a column its campaign's template needs: the template, its first problem, how many
     * there are, and the file's columns (shown), the fields to check the template with to see them all.
     * How to run that check is each interface's own ({@link #reason(String)}).
     */
    public record MissingFields(String template, String first, int problems, List<String> columns) {

        public MissingFields {
            columns = List.copyOf(columns);
        }

        /** The refusal, ending with {@code next}: what to do to see every problem. */
        public String reason(String next) {
            return "template " + template + " needs a field this file has no column for: " + first + " (" + problems
                    + " problem(s); " + next + ")";
        }

        /** In no interface's words: the columns to check the template with. */
        String reason() {
            return reason(columns.isEmpty() ? "the file has no field columns" : "the file's columns: " + String.join(",", columns));
        }
    }

    private final Path file;
    private final String reason;
    private final Optional<MissingFields> missing;

    /** @param reason one line, naming no file */
    public ImportFileException(Path file, String reason) {
        this(file, reason, Optional.empty());
    }

    ImportFileException(Path file, MissingFields missing) {
        this(file, missing.reason(), Optional.of(missing));
    }

    private ImportFileException(Path file, String reason, Optional<MissingFields> missing) {
        super(file + ": " + reason);
        this.file = file;
        this.reason = reason;
        this.missing = missing;
    }

    public Path file() {
        return file;
    }

    public String reason() {
        return reason;
    }

    /** Present when the file lacks a column its campaign's template needs. */
    public Optional<MissingFields> missing() {
        return missing;
    }
}
