package dev.mailrun.app.cli;

import dev.mailrun.csv.RejectCounts;
import dev.mailrun.csv.RejectedRow;
import java.io.PrintWriter;
import java.nio.file.Path;

/** The first rejected rows of an import, one line each, and where the rest are; recipient and suppression imports alike. */
final class RejectLines {

    private RejectLines() {}

    /** @param rejectsFile the rejects file the operator asked for, or null */
    static void print(PrintWriter out, RejectCounts<?> report, Path rejectsFile) {
        for (RejectedRow<?> rej : report.firstRejects()) {
            out.println("  line " + rej.line() + ": " + rej.email() + " - " + rej.reason().label() + " (" + rej.detail() + ")");
        }
        if (report.rejected() > report.firstRejects().size()) {
            out.println("  … " + (report.rejected() - report.firstRejects().size()) + " more"
                    + (rejectsFile == null ? " (use --rejects FILE to list them all)" : " in " + rejectsFile));
        }
    }
}
