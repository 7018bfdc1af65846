package dev.mailrun.campaign.importing;

import dev.mailrun.csv.RejectReason;

/** Why a row of a recipient import was not imported; every rejected row carries one, with its line number. */
public enum RecipientRejectReason implements RejectReason {
    INVALID_SYNTAX, TOO_LONG, WRONG_FIELD_COUNT, DUPLICATE_IN_FILE, ALREADY_IN_CAMPAIGN, SUPPRESSED,
    DISPOSABLE_DOMAIN, ROLE_ADDRESS, INVALID_FIELD, TOO_LARGE, ATTACHMENT
}
