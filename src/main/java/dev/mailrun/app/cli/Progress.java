package dev.mailrun.app.cli;

import java.io.PrintWriter;

/**
 * A one-line progress display for long operations: redrawn in place on a terminal, silent when
 * output goes to a file or a pipe (logs and scripts get the final result only).
 */
final class Progress {

    private final PrintWriter err;
    private final boolean terminal;
    private final String label;
    private boolean shown;

    private Progress(PrintWriter err, boolean terminal, String label) {
        this.err = err;
        this.terminal = terminal;
        this.label = label;
    }

    static Progress on(PrintWriter err, String label) {
        return new Progress(err, System.console() != null, label);
    }

    static boolean isTerminal() {
        return System.console() != null;
    }

    void show(String text) {
        if (terminal) {
            err.print("\r\033[2K" + label + ": " + text);
            err.flush();
            shown = true;
        }
    }

    void done() {
        if (shown) {
            err.print("\r\033[2K");
            err.flush();
        }
    }

    static String bar(double fraction, int width) {
        int filled = (int) Math.round(Math.max(0, Math.min(1, fraction)) * width);
        return "[" + "#".repeat(filled) + "-".repeat(width - filled) + "]";
    }
}
