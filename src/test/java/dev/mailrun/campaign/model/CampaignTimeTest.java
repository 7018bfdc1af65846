package dev.mailrun.campaign.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class CampaignTimeTest {

    private static Instant at(String iso) {
        return Instant.parse(iso);
    }

    @Test
    void reads_instants_and_local_times_with_their_zone() {
        assertThat(CampaignTime.parse("2026-12-01T18:00:00Z")).isEqualTo(at("2026-12-01T18:00:00Z"));
        assertThat(CampaignTime.parse("2026-12-01T18:00+01:00")).isEqualTo(at("2026-12-01T17:00:00Z"));
        assertThat(CampaignTime.parse("2026-12-01T18:00 Europe/Berlin")).isEqualTo(at("2026-12-01T17:00:00Z"));
        assertThat(CampaignTime.parse("2026-07-01 18:00 Europe/Berlin")).isEqualTo(at("2026-07-01T16:00:00Z"));
        assertThat(CampaignTime.parse("2026-12-01T18:00[Europe/Berlin]")).isEqualTo(at("2026-12-01T17:00:00Z"));
    }

    @Test
    void its_messages_say_what_is_wrong_with_the_value_and_name_no_option() {
        assertThatThrownBy(() -> CampaignTime.parse("tomorrow"))
                .hasMessageStartingWith("must be an ISO-8601 instant").hasMessageEndingWith("got 'tomorrow'");
        assertThatThrownBy(() -> CampaignTime.parse("2026-12-01T18:00 Mars/Olympus"))
                .hasMessage("'2026-12-01T18:00 Mars/Olympus': unknown time zone 'Mars/Olympus'");
        assertThatThrownBy(() -> CampaignTime.parse("+999999999-12-31T23:59:59Z"))
                .hasMessage("must be from 1970-01-01T00:00:00Z and before 9999-01-01T00:00:00Z, got '+999999999-12-31T23:59:59Z'");
    }

    @Test
    void a_time_not_after_now_is_refused_naming_the_field() {
        Instant now = at("2026-11-21T10:00:00Z");
        assertThatThrownBy(() -> CampaignTime.requireFuture("startAt", now, now))
                .isInstanceOfSatisfying(InvalidFields.class, e -> assertThat(e.problems()).containsExactly(
                        new InvalidFields.Problem("startAt", "2026-11-21T10:00:00Z is not in the future (now 2026-11-21T10:00:00Z)")));
        CampaignTime.requireFuture("startAt", now.plusMillis(1), now);
    }
}
