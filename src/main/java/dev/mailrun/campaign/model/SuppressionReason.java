package dev.mailrun.campaign.model;

import java.util.Locale;

public enum SuppressionReason {
    UNSUBSCRIBED, HARD_BOUNCE, COMPLAINT, MANUAL;

    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
