package dev.mailrun.campaign.importing;

/**
 * An import that stopped part-way (the database lost, the disk full, the campaign cancelled):
 * {@link #report} counts what was decided and committed before it stopped. Running the same import
 * again finishes the job, since rows already imported are then rejected as already in the campaign.
 */
public final class ImportStoppedException extends RuntimeException {

    private final transient RecipientImportReport report;
    private final long unconfirmed;

    ImportStoppedException(RecipientImportReport report, long unconfirmed, Throwable cause) {
        super("import stopped after " + report.rows() + " rows read, " + report.imported() + " of them imported"
                + (unconfirmed > 0 ? " and " + unconfirmed + " perhaps (the connection was lost before their commit was confirmed)" : "")
                + ": " + firstLine(cause) + "; run the same import again to finish it"
                + " (rows already imported are then rejected as already in campaign)", cause);
        this.report = report;
        this.unconfirmed = unconfirmed;
    }

    /** What had been decided when the import stopped: {@code imported} rows are committed. */
    public RecipientImportReport report() {
        return report;
    }

    /**
     * Rows whose commit was sent but never confirmed, the connection lost meanwhile: they may or may
     * not be in the campaign. Running the import again settles it either way.
     */
    public long unconfirmed() {
        return unconfirmed;
    }

    private static String firstLine(Throwable t) {
        String m = t.getMessage();
        return m == null || m.isBlank() ? t.getClass().getSimpleName() : m.lines().findFirst().orElse(m).strip();
    }
}
