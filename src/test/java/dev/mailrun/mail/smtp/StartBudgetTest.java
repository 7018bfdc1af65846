package dev.mailrun.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The time a message needs left to be started: the usual time per message with four mean deviations
 * of margin, at least an eighth; a relay whose times hardly vary keeps little idle before a deadline,
 * one whose times scatter keeps more.
 */
class StartBudgetTest {

    private static final long MS = 1_000_000;

    @Test
    void unknown_time_per_message_keeps_the_unmeasured_budget() {
        assertThat(StartBudget.of(Optional.empty(), Optional.empty())).isEqualTo(StartBudget.UNMEASURED);
    }

    @Test
    void a_steady_relay_80_ms_away_keeps_an_eighth_of_a_message_free_not_half() {
        ConnectionSizer sizer = new ConnectionSizer(4, 64);
        // Four round trips of 80 ms: 320 ms a message, give or take a millisecond.
        for (int i = 0; i < 40; i++) {
            sizer.observe((i % 2 == 0 ? 319 : 321) * MS);
        }
        Duration budget = StartBudget.of(sizer.perMessage(), sizer.deviation());
        assertThat(budget).isEqualTo(Duration.ofNanos(sizer.perMessage().orElseThrow().toNanos() * 9 / 8));
        assertThat(budget).isBetween(Duration.ofMillis(355), Duration.ofMillis(365));
    }

    @Test
    void a_relay_whose_times_scatter_keeps_four_deviations_free() {
        ConnectionSizer sizer = new ConnectionSizer(4, 64);
        for (int i = 0; i < 40; i++) {
            sizer.observe((i % 2 == 0 ? 200 : 440) * MS);
        }
        Duration mean = sizer.perMessage().orElseThrow();
        Duration deviation = sizer.deviation().orElseThrow();
        assertThat(deviation).isBetween(Duration.ofMillis(100), Duration.ofMillis(140));
        assertThat(StartBudget.of(sizer.perMessage(), sizer.deviation())).isEqualTo(mean.plus(deviation.multipliedBy(4)));
    }

    @Test
    void a_time_carried_over_from_the_last_run_keeps_half_again_until_this_run_measures_its_spread() {
        ConnectionSizer sizer = new ConnectionSizer(4, 64);
        sizer.observe(320 * MS);
        assertThat(StartBudget.of(sizer.perMessage(), sizer.deviation())).isEqualTo(Duration.ofMillis(480));
    }

    @Test
    void a_relay_on_the_same_network_keeps_at_least_the_measured_minimum() {
        assertThat(StartBudget.of(Optional.of(Duration.ofMillis(2)), Optional.of(Duration.ZERO))).isEqualTo(StartBudget.MIN_MEASURED);
    }
}
