package dev.mailrun.campaign.suppression;

/** The file as a whole cannot be imported (missing, not UTF-8, not CSV, no address column); nothing was imported. */
public final class SuppressionFileException extends RuntimeException {

    SuppressionFileException(String message) {
        super(message);
    }
}
