package dev.mailrun.campaign.importing;

/**
 * The import cannot be done at all — the campaign cannot send what would be imported, or the file
 * is unusable ({@link ImportFileException}) — and nothing was imported.
 */
public class ImportRefusedException extends RuntimeException {

    ImportRefusedException(String message) {
        super(message);
    }
}
