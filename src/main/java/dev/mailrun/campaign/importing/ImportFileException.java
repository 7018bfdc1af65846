package dev.mailrun.campaign.importing;

import java.nio.file.Path;

/**
 * The file as a whole cannot be imported (not CSV, no email column); nothing was imported. The
 * message names the file; {@link #reason()} is the same without it, for a caller that names the file
 * otherwise (an upload, whose path is the server's temporary file).
 */
public final class ImportFileException extends ImportRefusedException {

    private final String reason;

    ImportFileException(Path file, String reason) {
        super(file + ": " + reason);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
