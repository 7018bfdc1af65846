package dev.mailrun.campaign.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Send windows on their zone's wall clock. Europe/Berlin in 2026: the clocks go forward on Sunday
 * 29 March at 01:00Z (02:00 CET becomes 03:00 CEST) and back on Sunday 25 October at 01:00Z
 * (03:00 CEST becomes 02:00 CET). Expected instants are written out in UTC, not computed.
 */
class SendWindowsTest {

    private static Instant at(String iso) {
        return Instant.parse(iso);
    }

    @Test
    void a_weekday_range_is_open_from_its_start_included_to_its_end_excluded_on_the_zones_clock() {
        SendWindows w = SendWindows.parse("Mon-Fri 08:00-18:00 Europe/Berlin");
        // Monday 23 November 2026, CET = UTC+1
        assertThat(w.isOpen(at("2026-11-23T06:59:59Z"))).isFalse();
        assertThat(w.isOpen(at("2026-11-23T07:00:00Z"))).isTrue();
        assertThat(w.isOpen(at("2026-11-23T16:59:59.999Z"))).isTrue();
        assertThat(w.isOpen(at("2026-11-23T17:00:00Z"))).isFalse();
        assertThat(w.isOpen(at("2026-11-28T10:00:00Z"))).as("Saturday").isFalse();
        assertThat(w.closesAfter(at("2026-11-23T09:00:00Z"))).hasValue(at("2026-11-23T17:00:00Z"));
        assertThat(w.nextOpen(at("2026-11-27T17:00:00Z"))).as("Friday's close to Monday's open")
                .hasValue(at("2026-11-30T07:00:00Z"));
        assertThat(w.nextOpen(at("2026-11-23T09:00:00Z"))).as("open now").hasValue(at("2026-11-23T09:00:00Z"));
        assertThat(w.closesAfter(at("2026-11-23T18:00:00Z"))).as("closed now").isEmpty();
    }

    @Test
    void a_business_day_keeps_its_local_hours_across_both_daylight_saving_changes() {
        SendWindows w = SendWindows.parse("08:00-18:00 Europe/Berlin");
        assertThat(w.nextOpen(at("2026-03-29T00:00:00Z"))).hasValue(at("2026-03-29T06:00:00Z"));
        assertThat(w.closesAfter(at("2026-03-29T06:00:00Z"))).hasValue(at("2026-03-29T16:00:00Z"));
        assertThat(w.nextOpen(at("2026-10-25T00:00:00Z"))).hasValue(at("2026-10-25T07:00:00Z"));
        assertThat(w.closesAfter(at("2026-10-25T07:00:00Z"))).hasValue(at("2026-10-25T17:00:00Z"));
    }

    @Test
    void when_the_clocks_go_forward_a_range_ending_in_the_skipped_hour_closes_at_the_jump() {
        SendWindows w = SendWindows.parse("Sun 01:30-02:30 Europe/Berlin");
        assertThat(w.nextOpen(at("2026-03-28T23:00:00Z"))).hasValue(at("2026-03-29T00:30:00Z"));
        // 02:00 CET is 03:00 CEST: the wall clock never shows 02:00-02:59 that night.
        assertThat(w.closesAfter(at("2026-03-29T00:30:00Z"))).hasValue(at("2026-03-29T01:00:00Z"));
        assertThat(w.nextOpen(at("2026-03-29T01:00:00Z"))).as("next Sunday, summer time")
                .hasValue(at("2026-04-04T23:30:00Z"));
    }

    @Test
    void when_the_clocks_go_forward_a_range_starting_in_the_skipped_hour_opens_at_the_jump() {
        SendWindows w = SendWindows.parse("Sun 02:30-03:30 Europe/Berlin");
        assertThat(w.nextOpen(at("2026-03-29T00:00:00Z"))).hasValue(at("2026-03-29T01:00:00Z"));
        assertThat(w.closesAfter(at("2026-03-29T01:00:00Z"))).hasValue(at("2026-03-29T01:30:00Z"));
        assertThat(SendWindows.parse("Sun 02:10-02:50 Europe/Berlin").isOpen(at("2026-03-29T01:00:00Z")))
                .as("a range wholly inside the skipped hour is not open that night").isFalse();
    }

    @Test
    void when_the_clocks_go_back_a_range_covering_the_repeated_hour_is_open_through_both_passes() {
        SendWindows w = SendWindows.parse("Sun 01:30-02:30 Europe/Berlin");
        // 01:30 CEST = 23:30Z; 02:30 CEST = 00:30Z; back to 02:00 CET at 01:00Z; 02:30 CET = 01:30Z.
        assertThat(w.nextOpen(at("2026-10-24T22:00:00Z"))).hasValue(at("2026-10-24T23:30:00Z"));
        assertThat(w.closesAfter(at("2026-10-24T23:30:00Z"))).hasValue(at("2026-10-25T00:30:00Z"));
        assertThat(w.isOpen(at("2026-10-25T00:45:00Z"))).as("02:45 summer time").isFalse();
        assertThat(w.nextOpen(at("2026-10-25T00:30:00Z"))).hasValue(at("2026-10-25T01:00:00Z"));
        assertThat(w.closesAfter(at("2026-10-25T01:00:00Z"))).hasValue(at("2026-10-25T01:30:00Z"));
    }

    @Test
    void an_overnight_range_belongs_to_the_day_it_starts_on() {
        SendWindows w = SendWindows.parse("Fri 22:00-06:00 UTC");
        assertThat(w.isOpen(at("2026-11-27T23:00:00Z"))).isTrue();
        assertThat(w.isOpen(at("2026-11-28T05:59:00Z"))).isTrue();
        assertThat(w.isOpen(at("2026-11-28T06:00:00Z"))).isFalse();
        assertThat(w.isOpen(at("2026-11-28T23:00:00Z"))).as("Saturday night").isFalse();
        assertThat(w.closesAfter(at("2026-11-27T22:00:00Z"))).hasValue(at("2026-11-28T06:00:00Z"));
    }

    @Test
    void ranges_that_meet_close_as_one_and_repeated_options_add_ranges() {
        SendWindows w = SendWindows.parse(List.of("Mon 08:00-12:00 UTC", "Mon 12:00-14:00 UTC; Tue 09:00-10:00 UTC"));
        assertThat(w.closesAfter(at("2026-11-23T09:00:00Z"))).hasValue(at("2026-11-23T14:00:00Z"));
        assertThat(w.nextOpen(at("2026-11-23T14:00:00Z"))).hasValue(at("2026-11-24T09:00:00Z"));
        assertThat(w.spec()).isEqualTo("Mon 08:00-12:00 UTC; Mon 12:00-14:00 UTC; Tue 09:00-10:00 UTC");
        assertThat(SendWindows.parse(w.spec())).isEqualTo(w);
        assertThat(SendWindows.parse("00:00-24:00 UTC").closesAfter(at("2026-11-23T09:00:00Z")))
                .as("open all week: nothing to cut").isEmpty();
        assertThat(SendWindows.parse("Sat,Sun 10:00-11:00 UTC").isOpen(at("2026-11-29T10:30:00Z"))).isTrue();
        assertThat(SendWindows.parse("Fri-Mon 10:00-11:00 UTC").isOpen(at("2026-11-30T10:30:00Z"))).as("wrapping days").isTrue();
    }

    @Test
    void a_malformed_range_is_refused_with_one_line_naming_the_option_and_the_value() {
        assertRefused("Mon-Fri 08:00-18:00 Mars/Olympus", "'Mon-Fri 08:00-18:00 Mars/Olympus'",
                "unknown time zone 'Mars/Olympus' (use a region such as Europe/Berlin, or UTC)");
        assertRefused("Mon-Fry 08:00-18:00 UTC", "'Mon-Fry 08:00-18:00 UTC'", "unknown day 'Fry' (Mon, Tue, Wed, Thu, Fri, Sat, Sun)");
        assertRefused("Mon 8-18 UTC", "'Mon 8-18 UTC'", "times must read HH:MM-HH:MM, got '8-18'");
        assertRefused("Mon 08:00-25:00 UTC", "'Mon 08:00-25:00 UTC'", "no such time of day: 25:00");
        assertRefused("09:00-09:00 UTC", "'09:00-09:00 UTC'", "starts and ends at the same time");
        assertRefused("Mon-Fri 08:00-18:00", "'Mon-Fri 08:00-18:00'", "needs a time zone after the times, e.g. Europe/Berlin or UTC");
        assertRefused(" ; ", "';'", "holds no range");
        assertThatThrownBy(() -> SendWindows.parse("  ")).isInstanceOfSatisfying(InvalidFields.class,
                e -> assertThat(e.problems()).containsExactly(new InvalidFields.Problem("windows", "must not be empty")));
        assertThat(SendWindows.parse("mon-FRI 08:00-18:00 UTC").spec()).isEqualTo("mon-FRI 08:00-18:00 UTC");
        assertThat(Optional.of(SendWindows.parse("Monday 08:00-18:00 UTC"))).isPresent();
    }

    /** Refused as a problem of the field windows, about the range as written, in no interface's words. */
    private static void assertRefused(String spec, String range, String reason) {
        assertThatThrownBy(() -> SendWindows.parse(spec)).isInstanceOfSatisfying(InvalidFields.class, e -> {
            assertThat(e.problems()).containsExactly(InvalidFields.Problem.about("windows", range, reason));
            assertThat(e.problems().get(0).reason()).isEqualTo(range + ": " + reason);
        });
    }
}
