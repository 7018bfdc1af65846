package dev.mailrun.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.scheduler.SchedulerConfig.SafetyMargin;
import java.net.UnknownHostException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SchedulerConfigTest {

    @Test
    void a_heartbeat_that_is_not_well_inside_the_lease_is_rejected() {
        assertThatThrownBy(() -> SchedulerConfig.defaults("w1").withLease(Duration.ofSeconds(30), Duration.ofSeconds(10)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("third of the lease");
    }

    @Test
    void the_safety_margin_is_a_share_of_the_interval_capped_and_never_more_than_half() {
        assertThat(SafetyMargin.DEFAULT.of(Duration.ofMinutes(5))).isEqualTo(Duration.ofSeconds(30));
        assertThat(SafetyMargin.DEFAULT.of(Duration.ofHours(1))).isEqualTo(Duration.ofMinutes(1));
        assertThat(SafetyMargin.fixed(Duration.ofMinutes(2)).of(Duration.ofMinutes(3))).isEqualTo(Duration.ofSeconds(90));
        assertThatThrownBy(() -> new SafetyMargin(0.9, Duration.ofMinutes(1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void the_default_owner_names_this_host_and_process() {
        assertThat(SchedulerConfig.defaults(SchedulerConfig.thisProcess("unknown-host")).owner())
                .endsWith("/" + ProcessHandle.current().pid());
    }

    @Test
    void a_host_whose_name_cannot_be_resolved_is_named_by_the_fallback_the_configuration_passes() {
        SchedulerConfig.HostLookup unresolvable = () -> {
            throw new UnknownHostException("no hosts entry");
        };
        assertThat(SchedulerConfig.owner(unresolvable, "container-7f3a", 42)).isEqualTo("container-7f3a/42");
        assertThat(SchedulerConfig.owner(() -> "mail-1.example", "container-7f3a", 42)).isEqualTo("mail-1.example/42");
    }

    @Test
    void an_owner_longer_than_the_column_keeps_its_end_with_the_pid() {
        String owner = SchedulerConfig.owner(() -> "h".repeat(300), "unused", 4242);
        assertThat(owner).hasSize(255).endsWith("h/4242");
    }

    @Test
    void the_default_lease_frees_a_dead_runs_task_within_30_seconds_and_a_lease_below_3_seconds_is_refused() {
        assertThat(SchedulerConfig.defaults("w1").leaseSettings())
                .isEqualTo(new LeaseSettings(Duration.ofSeconds(30), Duration.ofSeconds(5)));
        assertThatThrownBy(() -> new LeaseSettings(Duration.ofSeconds(2), Duration.ofMillis(500)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least PT3S");
        assertThat(SchedulerConfig.defaults("w1").withLease(new LeaseSettings(Duration.ofSeconds(6), Duration.ofSeconds(1)))
                .lease()).isEqualTo(Duration.ofSeconds(6));
    }
}
