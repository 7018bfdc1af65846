package dev.mailrun.campaign.importing;

import dev.mailrun.csv.RejectLog;
import java.io.IOException;

/**
 * The fate of every row of one import as it is decided: counts by reason, the first few rejects for
 * the summary, and the rejects file. Called by the reader (row checks, duplicates) and by both
 * writers (database checks), so every method is synchronized.
 */
final class Outcomes implements AutoCloseable {

    private final RejectLog<RecipientRejectReason> rejects;
    private final ImportListener listener;
    private long imported;
    private long unconfirmed;

    Outcomes(RejectLog<RecipientRejectReason> rejects, ImportListener listener) {
        this.rejects = rejects;
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

    synchronized void reject(long line, String email, RecipientRejectReason reason, String detail) throws IOException {
        listener.rejected(reason);
        rejects.reject(line, email, reason, detail);
    }

    synchronized RecipientImportReport report(long rowsRead) {
        return new RecipientImportReport(rowsRead, imported, rejects.counts(), rejects.first());
    }

    /** Flushes and closes the rejects file. */
    @Override
    public synchronized void close() throws IOException {
        rejects.close();
    }
}
