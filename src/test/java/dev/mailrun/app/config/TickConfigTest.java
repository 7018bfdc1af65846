package dev.mailrun.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.scheduler.LeaseSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TickConfigTest {

    private static MailrunConfig load(Map<String, String> env) {
        return ConfigLoader.load(Optional.empty(), env);
    }

    @Test
    void the_default_lease_lets_a_killed_run_be_taken_over_within_30_seconds() {
        assertThat(load(Map.of()).tick().lease()).isEqualTo(new LeaseSettings(Duration.ofSeconds(30), Duration.ofSeconds(5)));
    }

    @Test
    void the_hostname_variable_names_the_worker_where_the_machine_name_cannot_be_resolved() {
        assertThat(load(Map.of("HOSTNAME", "container-7f3a")).tick().fallbackHost()).isEqualTo("container-7f3a");
        assertThat(load(Map.of()).tick().fallbackHost()).isEqualTo("unknown-host");
    }

    @Test
    void lease_and_heartbeat_are_read_from_their_keys() {
        MailrunConfig c = load(Map.of("MAILRUN_TICK_LEASE", "2m", "MAILRUN_TICK_HEARTBEAT", "20s"));
        assertThat(c.tick().lease()).isEqualTo(new LeaseSettings(Duration.ofMinutes(2), Duration.ofSeconds(20)));
    }

    @Test
    void a_heartbeat_not_below_a_third_of_the_lease_is_one_line_naming_the_key() {
        assertThatThrownBy(() -> load(Map.of("MAILRUN_TICK_LEASE", "15s", "MAILRUN_TICK_HEARTBEAT", "5s")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("configuration key tick.heartbeat: must be below a third of tick.lease (PT15S) so that two late"
                        + " heartbeats in a row still keep the lease, got PT5S");
    }

    @Test
    void a_lease_or_heartbeat_outside_its_range_and_an_overlap_wait_not_below_the_lease_name_their_key() {
        assertThatThrownBy(() -> load(Map.of("MAILRUN_TICK_LEASE", "1s"))).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("configuration key tick.lease:").hasMessageNotContaining("\n");
        assertThatThrownBy(() -> load(Map.of("MAILRUN_TICK_HEARTBEAT", "30s"))).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("configuration key tick.heartbeat:").hasMessageNotContaining("\n");
        assertThatThrownBy(() -> load(Map.of("MAILRUN_TICK_LEASE", "4s", "MAILRUN_TICK_HEARTBEAT", "1s")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("configuration key tick.overlap-wait: must be shorter than tick.lease (PT4S), got PT5S");
    }

    @Test
    void an_interval_that_leaves_a_run_under_two_seconds_is_one_line_naming_the_keys_and_the_minimum() {
        assertThatThrownBy(() -> load(Map.of("MAILRUN_TICK_INTERVAL", "2s", "MAILRUN_TICK_SAFETY_MARGIN", "1s")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("configuration key tick.interval: must be at least 3s with tick.safety-margin=1s (a run needs 2s"
                        + " before its deadline: tick.interval minus tick.safety-margin, the margin at most half the"
                        + " interval), got 2s");
        assertThatThrownBy(() -> load(Map.of("MAILRUN_TICK_INTERVAL", "1s", "MAILRUN_TICK_SAFETY_MARGIN", "0s")))
                .hasMessageStartingWith("configuration key tick.interval: must be at least 2s");
        assertThatThrownBy(() -> load(Map.of("MAILRUN_TICK_INTERVAL", "3s", "MAILRUN_TICK_SAFETY_MARGIN", "15s")))
                .hasMessageStartingWith("configuration key tick.interval: must be at least 4s with tick.safety-margin=15s");
    }

    @Test
    void an_interval_that_leaves_a_run_two_seconds_is_accepted() {
        assertThat(load(Map.of("MAILRUN_TICK_INTERVAL", "3s", "MAILRUN_TICK_SAFETY_MARGIN", "1s")).tick().interval())
                .isEqualTo(Duration.ofSeconds(3));
        assertThat(load(Map.of("MAILRUN_TICK_INTERVAL", "3s", "MAILRUN_TICK_SAFETY_MARGIN", "500ms")).tick().interval())
                .isEqualTo(Duration.ofSeconds(3));
    }
}
