package dev.mailrun.campaign.suppression;

import dev.mailrun.csv.Shown;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * The rejected rows of one import: counted by reason, the first few kept for the summary (values
 * cut and escaped by {@link Shown}), and every
 * one written to the rejects file when there is one (columns line, email, reason, detail: the same
 * shape as a recipient import's rejects file).
 */
final class RejectLog implements AutoCloseable {

    static final int FIRST_KEPT = 20;

    private final Map<RejectReason, Long> counts = ImportReport.emptyCounts();
    private final List<ImportReport.Reject> first = new ArrayList<>();
    private final CSVPrinter file;

    private RejectLog(CSVPrinter file) {
        this.file = file;
    }

    /** @throws SuppressionFileException when the rejects file cannot be created, as a recipient import says it */
    static RejectLog to(Optional<Path> path) {
        if (path.isEmpty()) {
            return new RejectLog(null);
        }
        try {
            CSVPrinter p = new CSVPrinter(Files.newBufferedWriter(path.get(), StandardCharsets.UTF_8), CSVFormat.RFC4180);
            p.printRecord("line", "email", "reason", "detail");
            return new RejectLog(p);
        } catch (IOException e) {
            throw new SuppressionFileException(path.get() + ": cannot write the rejects file (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage().lines().findFirst().orElse("")) + ")");
        }
    }

    void reject(long line, String email, RejectReason reason, String detail) throws IOException {
        counts.merge(reason, 1L, Long::sum);
        if (first.size() < FIRST_KEPT) {
            // The summary shows a value as every import does; the rejects file keeps it as it was.
            first.add(new ImportReport.Reject(line, Shown.of(email), reason, Shown.of(detail)));
        }
        if (file != null) {
            file.printRecord(line, email, reason.label(), detail);
        }
    }

    Map<RejectReason, Long> counts() {
        return counts;
    }

    List<ImportReport.Reject> first() {
        return first;
    }

    @Override
    public void close() throws IOException {
        if (file != null) {
            file.close(true);
        }
    }
}
