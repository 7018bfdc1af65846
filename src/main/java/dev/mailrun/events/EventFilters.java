package dev.mailrun.events;

import dev.mailrun.events.store.DeliveryTable;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * The one reading of what operators filter deliveries by, for the command line and the HTTP API
 * alike. Each check throws {@link IllegalArgumentException} with a reason that the caller prefixes
 * with its own name of the field ({@code --status}, {@code status}).
 */
public final class EventFilters {

    private EventFilters() {}

    public static Optional<DeliveryTable.Status> status(String value) {
        return Optional.ofNullable(value).map(v -> DeliveryTable.Status.fromDb(v.strip().toLowerCase(Locale.ROOT))
                .orElseThrow(() -> new IllegalArgumentException(
                        "must be pending, failed, delivered or discarded, got '" + shown(v) + "'")));
    }

    /** A type ({@code recipient.bounced}), a prefix ({@code recipient.*}); {@code *} and absent select all. */
    public static Optional<String> type(String value) {
        if (value != null && !value.matches("\\*|[a-z]+\\.\\*|[a-z]+\\.[a-z_]+")) {
            throw new IllegalArgumentException("must be an event type (recipient.bounced) or a prefix (recipient.*), got '"
                    + shown(value) + "'");
        }
        return Optional.ofNullable(value).filter(t -> !t.equals("*"));
    }

    public static Optional<String> endpoint(String value) {
        if (value != null && !value.matches("[a-z][a-z0-9-]{0,31}")) {
            throw new IllegalArgumentException("must be an endpoint name (lower-case letters, digits, '-'), got '"
                    + shown(value) + "'");
        }
        return Optional.ofNullable(value);
    }

    /** What a discard may select: pending or failed deliveries (both when absent). */
    public static Optional<DeliveryTable.Status> discardable(String value) {
        Optional<DeliveryTable.Status> s = status(value);
        if (s.isPresent() && s.get() != DeliveryTable.Status.PENDING && s.get() != DeliveryTable.Status.FAILED) {
            throw new IllegalArgumentException("must be pending or failed, got '" + shown(value) + "'");
        }
        return s;
    }

    public static DeliveryTable.Filter filter(String endpoint, String status, String type, Instant before) {
        return new DeliveryTable.Filter(endpoint(endpoint), status(status), type(type), Optional.ofNullable(before));
    }

    private static String shown(String v) {
        String s = v.length() > 60 ? v.substring(0, 60) + "…" : v;
        return s.replaceAll("\\p{Cntrl}", "?");
    }
}
