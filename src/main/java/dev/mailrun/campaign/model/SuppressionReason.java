package dev.mailrun.campaign.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Why an address is on the suppression list. {@code IMPORTED}: it came from another system's list
 * ({@code suppressions import}) whose own reason mailrun does not carry over.
 */
public enum SuppressionReason {
    UNSUBSCRIBED, HARD_BOUNCE, COMPLAINT, MANUAL, IMPORTED;

    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The reason stored as {@code value} (as {@link #dbValue()} writes it), if it is one. */
    public static Optional<SuppressionReason> fromDb(String value) {
        return Arrays.stream(values()).filter(r -> r.dbValue().equals(value)).findFirst();
    }

    /** "unsubscribed, hard_bounce, …": what an operator may name. */
    public static String allDbValues() {
        return Arrays.stream(values()).map(SuppressionReason::dbValue).collect(Collectors.joining(", "));
    }
}
