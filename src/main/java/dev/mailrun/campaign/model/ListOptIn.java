package dev.mailrun.campaign.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** How people join a list: single (confirmed at once) or double (unconfirmed until they confirm). */
public enum ListOptIn {
    SINGLE, DOUBLE;

    /** The status a new subscription to a list of this opt-in starts in. */
    public SubscriptionStatus newSubscription() {
        return this == SINGLE ? SubscriptionStatus.CONFIRMED : SubscriptionStatus.UNCONFIRMED;
    }

    /** As stored, and as an operator names it: lower case. */
    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The value stored or named as {@code value} (case ignored), if it is one. */
    public static Optional<ListOptIn> parse(String value) {
        return Arrays.stream(values()).filter(v -> v.dbValue().equalsIgnoreCase(value == null ? "" : value.strip())).findFirst();
    }

    /** A value read from the database, where only {@link #dbValue()}s are written. */
    public static ListOptIn fromDb(String value) {
        return parse(value).orElseThrow(() -> new IllegalStateException("unknown list opt-in in the database: " + value));
    }
}
