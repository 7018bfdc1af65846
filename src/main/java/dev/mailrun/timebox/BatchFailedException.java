package dev.mailrun.timebox;

/**
 * A batch operator threw. The cause is the operator's exception; {@link #partialReport()} tells
 * what the run had completed before it. Nothing inside the timebox can be left half-updated: the
 * timebox keeps no state between runs and the estimator state is an immutable value, so the
 * report's estimator (which leaves the failed batch out) is safe to store.
 */
public final class BatchFailedException extends Exception {

    private final transient TimeboxReport partialReport;

    BatchFailedException(TimeboxReport partialReport, Throwable cause) {
        super("batch " + (partialReport.batches() + 1) + " failed after " + partialReport.batches()
                + " completed batches (" + partialReport.items() + " items): " + cause, cause);
        this.partialReport = partialReport;
    }

    /** The run up to the last completed batch; its end reason is {@link EndReason#OPERATOR_FAILED}. */
    public TimeboxReport partialReport() {
        return partialReport;
    }
}
