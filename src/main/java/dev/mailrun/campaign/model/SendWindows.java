package dev.mailrun.campaign.model;

import java.time.DayOfWeek;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * When a campaign may send: one or more ranges such as {@code Mon-Fri 08:00-18:00 Europe/Berlin},
 * each on its own zone's wall clock. The campaign may send while any range is open.
 *
 * <p>The rule is the wall clock's: a range is open exactly while the clock of its zone shows a
 * listed day and a time from its start (included) to its end (excluded). Daylight-saving changes
 * follow from it. When the clocks go forward, a range that starts inside the skipped hour opens
 * when the clocks jump (03:00 in Europe/Berlin), one that ends inside it closes then, and one that
 * lies wholly inside it is not open that day. When the clocks go back, a range that covers the
 * repeated hour is open through both passes (08:00-18:00 is unaffected; 00:00-02:30 on that
 * night is open until 02:30 summer time and again from 02:00 to 02:30 winter time).
 *
 * <p>A range whose end is before its start runs overnight (22:00-06:00): it belongs to the day it
 * starts on. {@code 24:00} may end a range. Without days, a range is open every day.
 *
 * <p>Over 250 lines as one piece: parsing a range and answering "open now?" and "next open when?" apply
 * the same wall-clock rules, which must not drift apart.
 */
public final class SendWindows {

    /** How far ahead the next opening or closing is looked for: every weekly range recurs within it. */
    private static final int DAYS_AHEAD = 8;
    private static final int DAY_SECONDS = 24 * 3600;
    private static final Pattern TIMES = Pattern.compile("(\\d{2}):(\\d{2})-(\\d{2}):(\\d{2})");

    /** One range: days of the week (of its start), start and end as seconds of the day, its zone. */
    private record Range(Set<DayOfWeek> days, int from, int to, ZoneId zone, String text) {

        boolean overnight() {
            return to <= from;
        }

        boolean isOpen(Instant at) {
            LocalDateTime local = LocalDateTime.ofInstant(at, zone);
            int s = local.toLocalTime().toSecondOfDay();
            DayOfWeek day = local.getDayOfWeek();
            if (!overnight()) {
                return days.contains(day) && s >= from && s < to;
            }
            return (days.contains(day) && s >= from) || (days.contains(day.minus(1)) && s < to);
        }

        /** Instants around which this range may open or close: its local start, end and midnight, and the zone's transitions. */
        void boundaries(Instant after, Instant until, TreeSet<Instant> into) {
            ZoneRules rules = zone.getRules();
            LocalDate first = LocalDate.ofInstant(after, zone).minusDays(1);
            for (int d = 0; d <= DAYS_AHEAD + 2; d++) {
                LocalDate date = first.plusDays(d);
                for (int seconds : new int[] {0, from, to}) {
                    LocalDateTime local = seconds == DAY_SECONDS ? date.plusDays(1).atStartOfDay()
                            : date.atTime(LocalTime.ofSecondOfDay(seconds));
                    // A time in a skipped hour has no offset: the transition below stands for it.
                    for (ZoneOffset offset : rules.getValidOffsets(local)) {
                        into.add(local.toInstant(offset));
                    }
                }
            }
            ZoneOffsetTransition t = rules.nextTransition(after);
            while (t != null && t.getInstant().isBefore(until)) {
                into.add(t.getInstant());
                t = rules.nextTransition(t.getInstant());
            }
        }
    }

    /** The field a campaign's send windows are given in. */
    private static final String FIELD = "windows";

    private final List<Range> ranges;

    private SendWindows(List<Range> ranges) {
        this.ranges = List.copyOf(ranges);
    }

    /**
     * Parses ranges separated by {@code ;}.
     *
     * @throws InvalidFields naming the field {@code windows} and the range at fault, in no interface's words
     */
    public static SendWindows parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw InvalidFields.of(FIELD, "must not be empty");
        }
        List<Range> ranges = new ArrayList<>();
        for (String part : spec.split(";")) {
            if (!part.isBlank()) {
                ranges.add(range(part.trim()));
            }
        }
        if (ranges.isEmpty()) {
            throw bad(spec.strip(), "holds no range");
        }
        return new SendWindows(ranges);
    }

    /** Several ranges given apart, as one set. */
    public static SendWindows parse(List<String> specs) {
        return parse(String.join(";", specs));
    }

    /** The ranges as stored and shown: each as {@code Mon-Fri 08:00-18:00 Europe/Berlin}, joined by {@code "; "}. */
    public String spec() {
        return ranges.stream().map(Range::text).collect(Collectors.joining("; "));
    }

    public boolean isOpen(Instant at) {
        return ranges.stream().anyMatch(r -> r.isOpen(at));
    }

    /** {@code at} when open; otherwise when a range opens next (empty if none does within a week). */
    public Optional<Instant> nextOpen(Instant at) {
        return isOpen(at) ? Optional.of(at) : nextChange(at, true);
    }

    /**
     * When the window that is open at {@code at} closes: the first instant after it at which no
     * range is open, ranges that meet or overlap taken as one. Empty when it is closed at
     * {@code at}, or stays open for more than a week (a range open all day, every day).
     */
    public Optional<Instant> closesAfter(Instant at) {
        return isOpen(at) ? nextChange(at, false) : Optional.empty();
    }

    /** The first boundary after {@code at} where the window is open (or closed). */
    private Optional<Instant> nextChange(Instant at, boolean open) {
        Instant until = at.plusSeconds((long) (DAYS_AHEAD + 1) * DAY_SECONDS);
        TreeSet<Instant> boundaries = new TreeSet<>();
        ranges.forEach(r -> r.boundaries(at, until, boundaries));
        for (Instant b : boundaries.tailSet(at, false)) {
            if (!b.isBefore(until)) {
                break;
            }
            if (isOpen(b) == open) {
                return Optional.of(b);
            }
        }
        return Optional.empty();
    }

    private static Range range(String text) {
        String[] words = text.split("\\s+");
        if (words.length < 2 || words.length > 3) {
            throw bad(text, "expected [DAYS] HH:MM-HH:MM ZONE, e.g. Mon-Fri 08:00-18:00 Europe/Berlin");
        }
        if (TIMES.matcher(words[words.length - 1]).matches()) {
            throw bad(text, "needs a time zone after the times, e.g. Europe/Berlin or UTC");
        }
        Set<DayOfWeek> days = words.length == 3 ? days(text, words[0]) : EnumSet.allOf(DayOfWeek.class);
        Matcher m = TIMES.matcher(words[words.length - 2]);
        if (!m.matches()) {
            throw bad(text, "times must read HH:MM-HH:MM, got '" + words[words.length - 2] + "'");
        }
        int from = seconds(text, m.group(1), m.group(2), false);
        int to = seconds(text, m.group(3), m.group(4), true);
        if (from == to) {
            throw bad(text, "starts and ends at the same time");
        }
        ZoneId zone;
        String zoneText = words[words.length - 1];
        try {
            zone = ZoneId.of(zoneText);
        } catch (DateTimeException e) {
            throw bad(text, "unknown time zone '" + zoneText + "' (use a region such as Europe/Berlin, or UTC)");
        }
        String dayText = words.length == 3 ? words[0] + " " : "";
        return new Range(days, from, to, zone, dayText + words[words.length - 2] + " " + zone.getId());
    }

    private static int seconds(String text, String hours, String minutes, boolean end) {
        int h = Integer.parseInt(hours);
        int min = Integer.parseInt(minutes);
        boolean midnightEnd = end && h == 24 && min == 0;
        if (!midnightEnd && (h > 23 || min > 59)) {
            throw bad(text, "no such time of day: " + hours + ":" + minutes);
        }
        return h * 3600 + min * 60;
    }

    /** {@code Mon-Fri}, {@code Sat,Sun}, {@code Mon,Wed-Fri}; a range may wrap ({@code Fri-Mon}). */
    private static Set<DayOfWeek> days(String text, String words) {
        Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        for (String item : words.split(",")) {
            String[] ends = item.split("-", -1);
            if (ends.length > 2) {
                throw bad(text, "days must read like Mon-Fri or Sat,Sun, got '" + words + "'");
            }
            DayOfWeek first = day(text, ends[0]);
            DayOfWeek last = ends.length == 2 ? day(text, ends[1]) : first;
            for (DayOfWeek d = first; ; d = d.plus(1)) {
                days.add(d);
                if (d == last) {
                    break;
                }
            }
        }
        return days;
    }

    private static DayOfWeek day(String text, String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (DayOfWeek d : DayOfWeek.values()) {
            String full = d.getDisplayName(TextStyle.FULL, Locale.ENGLISH).toLowerCase(Locale.ROOT);
            if (n.length() >= 3 && full.startsWith(n)) {
                return d;
            }
        }
        throw bad(text, "unknown day '" + name + "' (Mon, Tue, Wed, Thu, Fri, Sat, Sun)");
    }

    private static InvalidFields bad(String range, String reason) {
        return InvalidFields.about(FIELD, "'" + range + "'", reason);
    }

    /** Where {@code at} falls on the first range's wall clock, for messages: {@code 2026-03-30 08:00 Europe/Berlin}. */
    public String local(Instant at) {
        ZonedDateTime z = at.atZone(ranges.get(0).zone());
        return String.format(Locale.ROOT, "%s %02d:%02d %s", z.toLocalDate(), z.getHour(), z.getMinute(), z.getZone().getId());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SendWindows w && w.spec().equals(spec());
    }

    @Override
    public int hashCode() {
        return spec().hashCode();
    }

    @Override
    public String toString() {
        return spec();
    }
}
