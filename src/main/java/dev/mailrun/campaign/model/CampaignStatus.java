package dev.mailrun.campaign.model;

import java.util.Locale;

public enum CampaignStatus {
    DRAFT, SCHEDULED, RUNNING, PAUSED, COMPLETED, CANCELLED;

    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static CampaignStatus fromDb(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }

    public boolean isFinal() {
        return this == COMPLETED || this == CANCELLED;
    }
}
