package dev.mailrun.csv;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * The rejected rows of one import, recipients or suppressions alike: counted by reason, the first
 * few kept for the summary (values cut and escaped by {@link Shown}), and every one written to the
 * rejects file when there is one (columns line, email, reason, detail; values as they were). Not
 * thread-safe: an import that rejects from several threads holds it under its own lock.
 */
public final class RejectLog<R extends Enum<R> & RejectReason> implements AutoCloseable {

    private static final int FIRST_KEPT = 20;

    private final Map<R, Long> counts;
    private final List<RejectedRow<R>> first = new ArrayList<>();
    private final CSVPrinter file;

    private RejectLog(Class<R> reasons, CSVPrinter file) {
        this.counts = new EnumMap<>(reasons);
        for (R r : reasons.getEnumConstants()) {
            counts.put(r, 0L);
        }
        this.file = file;
    }

    /**
     * A log writing to {@code path} when present.
     *
     * @param refused how the import refuses to start, given the one-line reason, when the rejects
     *                file cannot be created; nothing was imported then
     */
    public static <R extends Enum<R> & RejectReason> RejectLog<R> to(Class<R> reasons, Optional<Path> path,
                                                                     Function<String, ? extends RuntimeException> refused) {
        if (path.isEmpty()) {
            return new RejectLog<>(reasons, null);
        }
        try {
            CSVPrinter p = new CSVPrinter(Files.newBufferedWriter(path.get(), StandardCharsets.UTF_8), CSVFormat.RFC4180);
            p.printRecord("line", "email", "reason", "detail");
            return new RejectLog<>(reasons, p);
        } catch (IOException e) {
            throw refused.apply(path.get() + ": cannot write the rejects file (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage().lines().findFirst().orElse("")) + ")");
        }
    }

    public void reject(long line, String email, R reason, String detail) throws IOException {
        counts.merge(reason, 1L, Long::sum);
        if (first.size() < FIRST_KEPT) {
            // The summary shows a value as every import does; the rejects file keeps it as it was.
            first.add(new RejectedRow<>(line, Shown.of(email), reason, Shown.of(detail)));
        }
        if (file != null) {
            file.printRecord(line, email, reason.label(), detail);
        }
    }

    /** Every reason with its count so far; a copy. */
    public Map<R, Long> counts() {
        return Map.copyOf(counts);
    }

    /** The first rejected rows so far; a copy. */
    public List<RejectedRow<R>> first() {
        return List.copyOf(first);
    }

    /** Flushes and closes the rejects file. */
    @Override
    public void close() throws IOException {
        if (file != null) {
            file.close(true);
        }
    }
}
