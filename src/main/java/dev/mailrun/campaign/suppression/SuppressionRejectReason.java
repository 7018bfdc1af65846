package dev.mailrun.campaign.suppression;

import dev.mailrun.csv.RejectReason;

/** Why a row of a suppression import was not put on the list; every rejected row carries one, with its line. */
public enum SuppressionRejectReason implements RejectReason {
    INVALID_SYNTAX, TOO_LONG, WRONG_FIELD_COUNT, DUPLICATE_IN_FILE, REFUSED_BY_DATABASE
}
