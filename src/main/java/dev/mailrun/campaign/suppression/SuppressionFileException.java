package dev.mailrun.campaign.suppression;

import java.nio.file.Path;

/**
 * The file as a whole cannot be imported (missing, not UTF-8, not CSV, no address column); nothing
 * was imported. The message names the file; {@link #reason()} is the same without it, for a caller
 * that names the file otherwise (an upload, whose path is the server's temporary file).
 */
public final class SuppressionFileException extends RuntimeException {

    private final String reason;

    SuppressionFileException(Path file, String reason) {
        super(file + ": " + reason);
        this.reason = reason;
    }

    /** A problem of the rejects file the operator named, whose name is in the message. */
    SuppressionFileException(String message) {
        super(message);
        this.reason = message;
    }

    public String reason() {
        return reason;
    }
}
