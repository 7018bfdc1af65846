package dev.mailrun.campaign.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** Where a subscription came from: an import, the API, a public form, an operator's command. */
public enum SubscriptionSource {
    IMPORT, API, FORM, OPERATOR;

    /** As stored, and as an operator names it: lower case. */
    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The value stored or named as {@code value} (case ignored), if it is one. */
    public static Optional<SubscriptionSource> parse(String value) {
        return Arrays.stream(values()).filter(v -> v.dbValue().equalsIgnoreCase(value == null ? "" : value.strip())).findFirst();
    }

    /** A value read from the database, where only {@link #dbValue()}s are written. */
    public static SubscriptionSource fromDb(String value) {
        return parse(value).orElseThrow(() -> new IllegalStateException("unknown subscription source in the database: " + value));
    }
}
