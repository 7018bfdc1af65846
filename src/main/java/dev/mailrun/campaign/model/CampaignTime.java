package dev.mailrun.campaign.model;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;

/**
 * A campaign's start or expiry as an operator writes it, the one reading of both for every front
 * end: an ISO-8601 instant ({@code 2026-12-01T18:00:00Z}, {@code 2026-12-01T18:00+01:00}) or a local
 * date-time with its zone ({@code 2026-12-01T18:00 Europe/Berlin}, or ISO's
 * {@code 2026-12-01T18:00[Europe/Berlin]}). A local time the clocks skip is read as the same time
 * after the jump would show (02:30 → 03:30); a repeated one as its first pass, the earlier instant.
 * Both must lie in the future when given ({@link #requireFuture}): a start already past would send at
 * once, an expiry already past would expire every recipient at the first run.
 *
 * <p>Messages say what is wrong with the value, never which option or field it came from: the
 * caller reports the field ({@link InvalidFields}).
 */
public final class CampaignTime {

    /**
     * Timestamps are DATETIME(3) columns, which end with the year 9999; the first slot and the task's
     * later slots are computed from the start, so it stays a year clear of that end.
     */
    public static final Instant EARLIEST = Instant.EPOCH;
    public static final Instant LATEST = Instant.parse("9999-01-01T00:00:00Z");

    static final String FORMS = "an ISO-8601 instant such as 2026-12-01T18:00:00Z or a local date-time"
            + " with its zone such as '2026-12-01T18:00 Europe/Berlin'";

    private CampaignTime() {}

    /** @throws IllegalArgumentException naming the value and what it must be */
    public static Instant parse(String text) {
        return within(read(text == null ? "" : text.strip()), text);
    }

    /**
     * Refuses {@code at} unless it is after {@code now}.
     *
     * @param field the field to name ({@code startAt}, {@code expireAt})
     * @throws InvalidFields naming {@code field}
     */
    public static void requireFuture(String field, Instant at, Instant now) {
        if (!at.isAfter(now)) {
            throw InvalidFields.of(field, at + " is not in the future (now " + now + ")");
        }
    }

    private static Instant read(String t) {
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
                throw new IllegalArgumentException("must be " + FORMS + ", got '" + t + "'");
            }
            try {
                return ZonedDateTime.ofLocal(at, ZoneId.of(zone), null).toInstant();
            } catch (DateTimeException e) {
                throw new IllegalArgumentException("'" + t + "': unknown time zone '" + zone + "'");
            }
        }
        throw new IllegalArgumentException("must be " + FORMS + ", got '" + t + "'");
    }

    private static Instant within(Instant at, String text) {
        if (at.isBefore(EARLIEST) || !at.isBefore(LATEST)) {
            throw new IllegalArgumentException("must be from " + EARLIEST + " and before " + LATEST + ", got '" + text + "'");
        }
        return at;
    }
}
