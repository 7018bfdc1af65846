package dev.mailrun.campaign.model;

import java.util.Locale;

public enum RecipientStatus {
    PENDING, SENDING, SENT, RETRY, FAILED, SUPPRESSED, UNKNOWN,
    /** Still waiting when the campaign's expiry came: never sent, final. */
    EXPIRED;

    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static RecipientStatus fromDb(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
