package dev.mailrun.campaign.model;

import java.util.Locale;

public enum RecipientStatus {
    PENDING,
    /**
     * Marked for sending by a run and not yet recorded: a count, never a row's stored status (the
     * run keeps these in its campaign's in-flight row, and their rows still say pending or retry).
     */
    SENDING,
    SENT, RETRY, FAILED, SUPPRESSED, UNKNOWN,
    /** Still waiting when the campaign's expiry came: never sent, final. */
    EXPIRED;

    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static RecipientStatus fromDb(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
