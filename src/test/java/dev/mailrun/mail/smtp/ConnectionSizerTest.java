package dev.mailrun.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConnectionSizerTest {

    private static final long MS = 1_000_000;

    @Test
    void before_any_message_and_without_a_rate_the_start_count_is_kept() {
        ConnectionSizer sizer = new ConnectionSizer(4, 32);
        assertThat(sizer.target(50)).isEqualTo(4);
        sizer.observe(450 * MS);
        assertThat(sizer.target(0)).isEqualTo(4);
    }

    @Test
    void the_count_follows_rate_times_time_per_message_with_a_quarter_more_and_one_spare() {
        ConnectionSizer sizer = new ConnectionSizer(4, 32);
        sizer.observe(450 * MS);
        // 50/s × 0.45 s = 22.5 busy connections; × 1.25 = 28.1 → 29, + 1 spare.
        assertThat(sizer.target(50)).isEqualTo(30);
        assertThat(sizer.unbounded(100).getAsLong()).isEqualTo(58);
        assertThat(sizer.target(100)).isEqualTo(32);
    }

    @Test
    void a_fast_relay_needs_fewer_connections_than_the_start_count() {
        ConnectionSizer sizer = new ConnectionSizer(4, 32);
        sizer.observe(2 * MS);
        assertThat(sizer.target(100)).isEqualTo(2);
    }

    @Test
    void the_moving_average_follows_a_slower_relay() {
        ConnectionSizer sizer = new ConnectionSizer(4, 32);
        sizer.observe(10 * MS);
        for (int i = 0; i < 60; i++) {
            sizer.observe(200 * MS);
        }
        assertThat(sizer.perMessageNanos().getAsLong()).isBetween(199 * MS, 200 * MS);
    }

    @Test
    void a_refused_connection_caps_the_pool_at_what_the_relay_served_until_the_shared_ceiling_includes_it() {
        ConnectionSizer sizer = new ConnectionSizer(4, 32);
        sizer.observe(450 * MS);
        sizer.relayRefused(6);
        assertThat(sizer.target(50)).isEqualTo(6);
        // A shared ceiling above what this pool learned (another worker's older value) does not lift it.
        sizer.limit(10);
        assertThat(sizer.ceiling()).isEqualTo(6);
        // Once the shared ceiling is as low, it decides alone, and may rise when it expires.
        sizer.limit(5);
        assertThat(sizer.ceiling()).isEqualTo(5);
        sizer.limit(Integer.MAX_VALUE);
        assertThat(sizer.ceiling()).isEqualTo(32);
    }

    @Test
    void the_report_says_when_the_connections_hold_the_rate_back() {
        ConnectionReport slow = new ConnectionReport(4, 24, 32, Optional.of(24), Optional.of(Duration.ofMillis(450)), 50);
        assertThat(slow.limitsRate()).isTrue();
        assertThat(slow.describe()).isEqualTo("4 at 450 ms per message reach 8.9/s of 50/s; growing to 24");

        ConnectionReport capped = new ConnectionReport(8, 8, 8, Optional.of(30), Optional.of(Duration.ofMillis(450)), 50);
        assertThat(capped.limitsRate()).isTrue();
        assertThat(capped.describe()).isEqualTo("8 at 450 ms per message reach 18/s of 50/s; 8 is the ceiling");

        ConnectionReport enough = new ConnectionReport(30, 30, 32, Optional.of(30), Optional.of(Duration.ofMillis(450)), 50);
        assertThat(enough.limitsRate()).isFalse();
    }

    @Test
    void connections_waiting_on_their_messages_own_pace_come_on_top_of_what_the_rate_needs() {
        ConnectionSizer sizer = new ConnectionSizer(4, 6);
        sizer.observe(2 * MS);
        assertThat(sizer.target(100, 0)).isEqualTo(2);
        // Two connections hold capped-domain messages until their domain's next permit: the rest
        // of the list still needs its two.
        assertThat(sizer.target(100, 2)).isEqualTo(4);
        assertThat(sizer.target(100, 9)).as("within smtp.max-connections").isEqualTo(6);
    }
}
