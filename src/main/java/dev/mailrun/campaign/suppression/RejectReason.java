package dev.mailrun.campaign.suppression;

import java.util.Locale;

/** Why a row of a suppression import was not put on the list; every rejected row carries one, with its line. */
public enum RejectReason {
    INVALID_SYNTAX, TOO_LONG, WRONG_FIELD_COUNT, DUPLICATE_IN_FILE, REFUSED_BY_DATABASE;

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
