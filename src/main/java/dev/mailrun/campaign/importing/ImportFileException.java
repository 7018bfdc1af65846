package dev.mailrun.campaign.importing;

/** The file as a whole cannot be imported (not CSV, no email column); nothing was imported. */
public final class ImportFileException extends ImportRefusedException {

    ImportFileException(String message) {
        super(message);
    }
}
