package dev.mailrun.campaign.importing;

import java.util.Locale;

/** Why an imported row was not imported; every rejected row carries one, with its line number. */
public enum RejectReason {
    INVALID_SYNTAX, TOO_LONG, WRONG_FIELD_COUNT, DUPLICATE_IN_FILE, ALREADY_IN_CAMPAIGN, SUPPRESSED,
    DISPOSABLE_DOMAIN, ROLE_ADDRESS, INVALID_FIELD, TOO_LARGE;

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
