package dev.mailrun.campaign.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** What a subscriber's history records. */
public enum SubscriberEventKind {
    CREATED, IMPORTED, UPDATED, SUBSCRIBED, CONFIRMED, UNSUBSCRIBED, BLOCKLISTED, UNBLOCKLISTED;

    /** As stored, and as an operator names it: lower case. */
    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The value stored or named as {@code value} (case ignored), if it is one. */
    public static Optional<SubscriberEventKind> parse(String value) {
        return Arrays.stream(values()).filter(v -> v.dbValue().equalsIgnoreCase(value == null ? "" : value.strip())).findFirst();
    }

    /** A value read from the database, where only {@link #dbValue()}s are written. */
    public static SubscriberEventKind fromDb(String value) {
        return parse(value).orElseThrow(() -> new IllegalStateException("unknown subscriber event kind in the database: " + value));
    }
}
