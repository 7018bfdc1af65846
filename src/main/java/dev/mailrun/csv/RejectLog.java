package dev.mailrun.csv;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.function.Function;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * The rejected rows of one import, recipients or suppressions alike: counted by reason, those of the
 * earliest lines kept for the summary (values cut and escaped by {@link Shown}), and every one written to the
 * rejects file when there is one (columns line, email, reason, detail; values as they were). Not
 * thread-safe: an import that rejects from several threads holds it under its own lock.
 */
public final class RejectLog<R extends Enum<R> & RejectReason> implements AutoCloseable {

    private static final int FIRST_KEPT = 20;

    private final Map<R, Long> counts;
    /** The kept rows, the latest line on top, so the next earlier line can take its place. */
    private final PriorityQueue<RejectedRow<R>> first =
            new PriorityQueue<>(Comparator.comparingLong((RejectedRow<R> r) -> r.line()).reversed());
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
        // Rows are decided out of line order (a writer rejects its batch's rows after the reader went
        // on): the summary keeps the earliest lines of the file, not the first decided.
        if (first.size() < FIRST_KEPT || line < first.peek().line()) {
            // The summary shows a value as every import does; the rejects file keeps it as it was.
            first.add(new RejectedRow<>(line, Shown.of(email), reason, Shown.of(detail)));
            if (first.size() > FIRST_KEPT) {
                first.poll();
            }
        }
        if (file != null) {
            file.printRecord(line, email, reason.label(), detail);
        }
    }

    /** Every reason with its count so far; a copy. */
    public Map<R, Long> counts() {
        return Map.copyOf(counts);
    }

    /** The rejected rows of the earliest lines so far, in line order; a copy. */
    public List<RejectedRow<R>> first() {
        List<RejectedRow<R>> rows = new ArrayList<>(first);
        rows.sort(Comparator.comparingLong(RejectedRow::line));
        return List.copyOf(rows);
    }

    /** Flushes and closes the rejects file. */
    @Override
    public void close() throws IOException {
        if (file != null) {
            file.close(true);
        }
    }
}
