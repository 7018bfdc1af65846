package dev.mailrun.campaign.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** Who sees a list: public (shown on the public subscription forms) or private (only operators add people). */
public enum ListVisibility {
    PUBLIC, PRIVATE;

    /** As stored, and as an operator names it: lower case. */
    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The value stored or named as {@code value} (case ignored), if it is one. */
    public static Optional<ListVisibility> parse(String value) {
        return Arrays.stream(values()).filter(v -> v.dbValue().equalsIgnoreCase(value == null ? "" : value.strip())).findFirst();
    }

    /** A value read from the database, where only {@link #dbValue()}s are written. */
    public static ListVisibility fromDb(String value) {
        return parse(value).orElseThrow(() -> new IllegalStateException("unknown list visibility in the database: " + value));
    }
}
