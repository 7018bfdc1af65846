package dev.mailrun.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.campaign.send.policy.DailyCap;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PolicyConfigTest {

    private static DailyCap load(Map<String, String> env) {
        return ConfigLoader.load(Optional.empty(), env).send().dailyCap();
    }

    @Test
    void without_policy_keys_no_day_is_capped() {
        DailyCap cap = load(Map.of());
        assertThat(cap.active()).isFalse();
        assertThat(cap.volumeOn(LocalDate.parse("2026-11-23"))).isEmpty();
        assertThat(cap.zone()).isEqualTo(ZoneId.of("UTC"));
    }

    @Test
    void a_warm_up_follows_its_list_from_its_first_day_then_grows_and_never_exceeds_the_daily_cap() {
        DailyCap cap = load(Map.of("MAILRUN_POLICY_WARMUP", "500, 1000,2000", "MAILRUN_POLICY_WARMUP_START", "2026-12-01",
                "MAILRUN_POLICY_WARMUP_GROWTH", "1.5", "MAILRUN_POLICY_DAILY_CAP", "5000",
                "MAILRUN_POLICY_DAY_ZONE", "Europe/Berlin"));
        assertThat(cap.zone()).isEqualTo(ZoneId.of("Europe/Berlin"));
        assertThat(cap.volumeOn(LocalDate.parse("2026-11-20"))).as("before day 1").isEqualTo(OptionalLong.of(500));
        assertThat(cap.volumeOn(LocalDate.parse("2026-12-01"))).isEqualTo(OptionalLong.of(500));
        assertThat(cap.volumeOn(LocalDate.parse("2026-12-03"))).isEqualTo(OptionalLong.of(2000));
        assertThat(cap.volumeOn(LocalDate.parse("2026-12-04"))).isEqualTo(OptionalLong.of(3000));
        assertThat(cap.volumeOn(LocalDate.parse("2026-12-05"))).isEqualTo(OptionalLong.of(4500));
        assertThat(cap.volumeOn(LocalDate.parse("2026-12-06"))).as("the cap bounds the ramp").isEqualTo(OptionalLong.of(5000));
        DailyCap listOnly = load(Map.of("MAILRUN_POLICY_WARMUP", "10,20", "MAILRUN_POLICY_WARMUP_START", "2026-12-01"));
        assertThat(listOnly.volumeOn(LocalDate.parse("2026-12-03"))).as("after the list, no cap").isEmpty();
    }

    @Test
    void bad_policy_values_are_one_line_errors_naming_the_key_and_the_value() {
        assertThatThrownBy(() -> load(Map.of("MAILRUN_POLICY_WARMUP", "500,abc", "MAILRUN_POLICY_WARMUP_START", "2026-12-01")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("configuration key policy.warmup: must be daily volumes 1–1000000000 separated by commas (500,1000,2000), got '500,abc'");
        assertThatThrownBy(() -> load(Map.of("MAILRUN_POLICY_WARMUP", "500,,1000", "MAILRUN_POLICY_WARMUP_START", "2026-12-01")))
                .hasMessageStartingWith("configuration key policy.warmup: must be daily volumes");
        assertThatThrownBy(() -> load(Map.of("MAILRUN_POLICY_WARMUP", "0", "MAILRUN_POLICY_WARMUP_START", "2026-12-01")))
                .hasMessageStartingWith("configuration key policy.warmup: must be daily volumes");
        assertThatThrownBy(() -> load(Map.of("MAILRUN_POLICY_WARMUP", "500")))
                .hasMessage("configuration key policy.warmup-start: must be set when policy.warmup is (the warm-up's day 1)");
        assertThatThrownBy(() -> load(Map.of("MAILRUN_POLICY_WARMUP", "500", "MAILRUN_POLICY_WARMUP_START", "1.12.2026")))
                .hasMessage("configuration key policy.warmup-start: must be a date such as 2026-12-01, got '1.12.2026'");
        assertThatThrownBy(() -> load(Map.of("MAILRUN_POLICY_WARMUP_GROWTH", "2")))
                .hasMessage("configuration key policy.warmup-growth: is set but policy.warmup is empty (the volume it grows from)");
        assertThatThrownBy(() -> load(Map.of("MAILRUN_POLICY_WARMUP", "5", "MAILRUN_POLICY_WARMUP_START", "2026-12-01",
                "MAILRUN_POLICY_WARMUP_GROWTH", "11")))
                .hasMessage("configuration key policy.warmup-growth: must be 1–10, got '11'");
        assertThatThrownBy(() -> load(Map.of("MAILRUN_POLICY_DAILY_CAP", "0")))
                .hasMessage("configuration key policy.daily-cap: must be between 1 and 1000000000, got '0'");
        assertThatThrownBy(() -> load(Map.of("MAILRUN_POLICY_DAY_ZONE", "Europe/Nowhere")))
                .hasMessage("configuration key policy.day-zone: is not a known time zone (use a region such as Europe/Berlin, or UTC), got 'Europe/Nowhere'");
    }

    @Test
    void a_warm_up_volume_above_the_daily_cap_is_refused_naming_the_volume_and_the_cap() {
        assertThatThrownBy(() -> load(Map.of("MAILRUN_POLICY_WARMUP", "5000", "MAILRUN_POLICY_WARMUP_START", "2026-12-01",
                "MAILRUN_POLICY_DAILY_CAP", "1000")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("configuration key policy.warmup: volume 5000 is above policy.daily-cap (1000);"
                        + " every warm-up volume must be at most the cap");
        assertThat(load(Map.of("MAILRUN_POLICY_WARMUP", "500,1000", "MAILRUN_POLICY_WARMUP_START", "2026-12-01",
                "MAILRUN_POLICY_DAILY_CAP", "1000")).volumeOn(LocalDate.parse("2026-12-02")))
                .as("a volume equal to the cap").isEqualTo(OptionalLong.of(1000));
    }
}
