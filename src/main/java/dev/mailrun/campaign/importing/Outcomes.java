package dev.mailrun.campaign.importing;

import dev.mailrun.csv.Shown;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fate of every row of one import as it is decided: counts by reason, the first few rejects for
 * the summary, and the rejects file. Called by the reader (row checks, duplicates) and by both
 * writers (database checks), so every method is synchronized.
 */
final class Outcomes implements AutoCloseable {

    private static final int FIRST_REJECTS_KEPT = 20;

    private final Optional<RejectsFile> file;
    private final ImportListener listener;
    private final Map<RejectReason, Long> counts = ImportReport.emptyCounts();
    private final List<ImportReport.Reject> firstRejects = new ArrayList<>();
    private long imported;
    private long unconfirmed;

    Outcomes(Optional<RejectsFile> file, ImportListener listener) {
        this.file = file;
        this.listener = listener;
    }

    synchronized void imported(long rows) {
        imported += rows;
        listener.accepted(rows);
    }

    /** Rows a commit would have put in whose outcome is unknown: the connection was lost before it confirmed. */
    synchronized void unconfirmed(long rows) {
        unconfirmed += rows;
    }

    synchronized long unconfirmed() {
        return unconfirmed;
    }

    synchronized void reject(long line, String email, RejectReason reason, String detail) throws IOException {
        counts.merge(reason, 1L, Long::sum);
        listener.rejected(reason);
        if (firstRejects.size() < FIRST_REJECTS_KEPT) {
            firstRejects.add(new ImportReport.Reject(line, Shown.of(email), reason, Shown.of(detail)));
        }
        if (file.isPresent()) {
            file.get().add(new ImportReport.Reject(line, email, reason, detail));
        }
    }

    synchronized ImportReport report(long rowsRead) {
        return new ImportReport(rowsRead, imported, counts, firstRejects);
    }

    /** Flushes and closes the rejects file. */
    @Override
    public synchronized void close() throws IOException {
        if (file.isPresent()) {
            file.get().close();
        }
    }
}
