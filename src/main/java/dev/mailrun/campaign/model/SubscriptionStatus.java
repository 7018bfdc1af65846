package dev.mailrun.campaign.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** A subscriber on one list: unconfirmed (a double opt-in list waits for the person), confirmed, or unsubscribed. */
public enum SubscriptionStatus {
    UNCONFIRMED, CONFIRMED, UNSUBSCRIBED;

    /** As stored, and as an operator names it: lower case. */
    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The value stored or named as {@code value} (case ignored), if it is one. */
    public static Optional<SubscriptionStatus> parse(String value) {
        return Arrays.stream(values()).filter(v -> v.dbValue().equalsIgnoreCase(value == null ? "" : value.strip())).findFirst();
    }

    /** A value read from the database, where only {@link #dbValue()}s are written. */
    public static SubscriptionStatus fromDb(String value) {
        return parse(value).orElseThrow(() -> new IllegalStateException("unknown subscription status in the database: " + value));
    }
}
