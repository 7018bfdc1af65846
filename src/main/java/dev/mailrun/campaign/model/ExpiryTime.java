package dev.mailrun.campaign.model;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;

/**
 * Reads {@code campaign create --expire-at}: an ISO-8601 instant ({@code 2026-12-01T18:00:00Z},
 * {@code 2026-12-01T18:00+01:00}) or a local date-time with its zone ({@code 2026-12-01T18:00
 * Europe/Berlin}, or ISO's {@code 2026-12-01T18:00[Europe/Berlin]}). A local time the clocks skip
 * is read as the same time after the jump would show (02:30 → 03:30); a repeated one as its first
 * pass, the earlier instant.
 */
public final class ExpiryTime {

    private static final String FORMS = "an ISO-8601 instant such as 2026-12-01T18:00:00Z or a local date-time"
            + " with its zone such as '2026-12-01T18:00 Europe/Berlin'";

    private ExpiryTime() {}

    public static Instant parse(String text) {
        String t = text == null ? "" : text.strip();
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException e) {
            // not an instant in UTC; try the other forms
        }
        try {
            return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeParseException e) {
            // not an offset date-time
        }
        try {
            return ZonedDateTime.parse(t).toInstant();
        } catch (DateTimeParseException e) {
            // not ISO's zoned form
        }
        // ISO's 2026-12-01T18:00[Europe/Berlin], without an offset: the same as with a space.
        if (t.endsWith("]") && t.indexOf('[') > 0) {
            t = t.substring(0, t.indexOf('[')) + " " + t.substring(t.indexOf('[') + 1, t.length() - 1);
        }
        int space = t.lastIndexOf(' ');
        if (space > 0) {
            String local = t.substring(0, space).strip().replace(' ', 'T');
            String zone = t.substring(space + 1);
            LocalDateTime at;
            try {
                at = LocalDateTime.parse(local);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("--expire-at must be " + FORMS + ", got '" + t + "'");
            }
            try {
                return ZonedDateTime.ofLocal(at, ZoneId.of(zone), null).toInstant();
            } catch (DateTimeException e) {
                throw new IllegalArgumentException("--expire-at '" + t + "': unknown time zone '" + zone + "'");
            }
        }
        throw new IllegalArgumentException("--expire-at must be " + FORMS + ", got '" + t + "'");
    }
}
