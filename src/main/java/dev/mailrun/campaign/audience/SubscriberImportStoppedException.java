package dev.mailrun.campaign.audience;

/**
 * An import into a list that stopped part-way (the database lost, the list deleted, the file changed):
 * {@link #report} counts what was committed before it stopped. Running the same import again finishes
 * the job: what it already did is then found done.
 */
public final class SubscriberImportStoppedException extends RuntimeException {

    private final transient SubscriberImportReport report;

    SubscriberImportStoppedException(SubscriberImportReport report, Throwable cause) {
        super("import stopped after " + report.rows() + " rows read: " + firstLine(cause) + "; run the same import again to finish it",
                cause);
        this.report = report;
    }

    public SubscriberImportReport report() {
        return report;
    }

    private static String firstLine(Throwable t) {
        String m = t.getMessage();
        return m == null || m.isBlank() ? t.getClass().getSimpleName() : m.lines().findFirst().orElse(m).strip();
    }
}
