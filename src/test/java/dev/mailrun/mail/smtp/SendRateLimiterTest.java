package dev.mailrun.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SendRateLimiterTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    @Test
    void one_permit_per_period_means_the_next_one_is_a_period_away() {
        SendRateLimiter limiter = new SendRateLimiter(2, nanos::get);

        assertThat(limiter.reserve(Duration.ofSeconds(10))).contains(Duration.ZERO);
        assertThat(limiter.reserve(Duration.ofSeconds(10))).hasValueSatisfying(wait ->
                assertThat(wait).isGreaterThan(Duration.ZERO)
                        .isLessThanOrEqualTo(Duration.ofMillis(500).plus(SendRateLimiter.HEADROOM.dividedBy(2))));
    }

    @Test
    void a_permit_beyond_the_allowed_wait_is_refused_at_once_and_not_booked() {
        SendRateLimiter limiter = new SendRateLimiter(1, nanos::get);
        limiter.reserve(Duration.ofSeconds(10));

        assertThat(limiter.reserve(Duration.ofMillis(100))).isEmpty();
        assertThat(limiter.reserve(Duration.ZERO)).isEmpty();
        // Nothing was booked by the refusals: the next permit is still one period away, not three.
        assertThat(limiter.reserve(Duration.ofSeconds(10))).hasValueSatisfying(wait ->
                assertThat(wait).isLessThanOrEqualTo(Duration.ofSeconds(1).plus(SendRateLimiter.HEADROOM)));
    }

    @Test
    void permits_come_back_as_the_injected_clock_advances() {
        SendRateLimiter limiter = new SendRateLimiter(1, nanos::get);
        limiter.reserve(Duration.ZERO);
        assertThat(limiter.reserve(Duration.ZERO)).isEmpty();

        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        // Paced a little slower than the rate (the headroom), so one second is not quite enough.
        assertThat(limiter.reserve(Duration.ZERO)).isEmpty();

        nanos.addAndGet(SendRateLimiter.HEADROOM.toNanos());
        assertThat(limiter.reserve(Duration.ZERO)).contains(Duration.ZERO);
    }

    @Test
    void a_thousand_per_second_is_paced_so_a_thousand_span_a_second_and_the_headroom() {
        SendRateLimiter limiter = new SendRateLimiter(1000, nanos::get);
        long start = nanos.get();
        long last = start;
        for (int i = 0; i < 1001; i++) {
            Duration wait = limiter.reserve(Duration.ofSeconds(10)).orElseThrow();
            last = nanos.get() + wait.toNanos();
        }
        // Permit 1,001 comes a second plus the headroom after the first, not a second.
        assertThat(Duration.ofNanos(last - start)).isBetween(
                Duration.ofSeconds(1).plus(SendRateLimiter.HEADROOM).minusNanos(1000),
                Duration.ofSeconds(1).plus(SendRateLimiter.HEADROOM).plusNanos(1000));
    }

    @Test
    void at_high_rates_a_connection_that_comes_back_late_in_the_cycle_takes_the_permits_it_missed() {
        SendRateLimiter limiter = new SendRateLimiter(1000, nanos::get);
        assertThat(SendRateLimiter.permitsPerCycle(1000)).isEqualTo(10);
        assertThat(SendRateLimiter.permitsPerCycle(199)).isEqualTo(1);
        assertThat(limiter.reserve(Duration.ZERO)).contains(Duration.ZERO);
        // Every connection busy for 6 ms: six permits fell due meanwhile. All are still there.
        nanos.addAndGet(Duration.ofMillis(6).toNanos());
        for (int i = 0; i < 9; i++) {
            assertThat(limiter.reserve(Duration.ZERO)).as("permit %d of the cycle", i + 2).contains(Duration.ZERO);
        }
        // The cycle's ten are used up; the next ten come with the next cycle, 10 ms and the headroom's
        // hundredth (10.05 ms) after the first.
        assertThat(limiter.reserve(Duration.ZERO)).isEmpty();
        assertThat(limiter.reserve(Duration.ofMillis(5))).hasValueSatisfying(wait ->
                assertThat(wait).isEqualTo(Duration.ofNanos(10_000_000 + SendRateLimiter.HEADROOM.toNanos() / 100 - 6_000_000)));
    }

    @Test
    void at_a_low_rate_the_permits_stay_one_period_apart() {
        SendRateLimiter limiter = new SendRateLimiter(100, nanos::get);
        assertThat(limiter.reserve(Duration.ZERO)).contains(Duration.ZERO);
        nanos.addAndGet(Duration.ofMillis(25).toNanos());
        // 2.5 periods passed, but a permit not taken in its own period is not kept.
        assertThat(limiter.reserve(Duration.ZERO)).contains(Duration.ZERO);
        assertThat(limiter.reserve(Duration.ZERO)).isEmpty();
    }

    @Test
    void a_negative_allowed_wait_past_the_deadline_is_refused() {
        assertThat(new SendRateLimiter(5, nanos::get).reserve(Duration.ofMillis(-1))).isEmpty();
    }

    @Test
    void rate_zero_is_unlimited_and_the_rate_can_change_while_running() {
        SendRateLimiter limiter = new SendRateLimiter(1, nanos::get);
        limiter.reserve(Duration.ZERO);
        assertThat(limiter.reserve(Duration.ZERO)).isEmpty();

        limiter.setRate(0);
        for (int i = 0; i < 1000; i++) {
            assertThat(limiter.reserve(Duration.ZERO)).contains(Duration.ZERO);
        }

        limiter.setRate(10);
        assertThat(limiter.rate()).isEqualTo(10);
        assertThat(limiter.reserve(Duration.ZERO)).contains(Duration.ZERO);
        assertThat(limiter.reserve(Duration.ofMillis(50))).isEmpty();
        assertThat(limiter.reserve(Duration.ofMillis(100).plus(SendRateLimiter.HEADROOM))).isPresent();
    }

    @Test
    void admit_holds_each_second_to_the_rate_and_forgets_nothing_when_the_rate_changes() {
        SendRateLimiter limiter = new SendRateLimiter(2, nanos::get);
        assertThat(limiter.admit()).isZero();
        nanos.addAndGet(Duration.ofMillis(100).toNanos());
        assertThat(limiter.admit()).isZero();
        nanos.addAndGet(Duration.ofMillis(100).toNanos());
        // The first leaves the window a second and the headroom after it was sent.
        assertThat(limiter.admit()).isEqualTo(Duration.ofMillis(800).plus(SendRateLimiter.HEADROOM));

        limiter.setRate(3);
        assertThat(limiter.admit()).isZero();
        assertThat(limiter.admit()).isEqualTo(Duration.ofMillis(800).plus(SendRateLimiter.HEADROOM));

        limiter.setRate(0);
        for (int i = 0; i < 100; i++) {
            assertThat(limiter.admit()).isZero();
        }
    }

    @Test
    void a_message_waiting_to_go_ahead_takes_the_next_free_place_and_the_others_wait_for_the_one_after() {
        SendRateLimiter limiter = new SendRateLimiter(2, nanos::get);
        assertThat(limiter.admit()).isZero();
        nanos.addAndGet(Duration.ofMillis(500).toNanos());
        assertThat(limiter.admit()).isZero();
        limiter.waitAhead(true);
        nanos.addAndGet(Duration.ofMillis(600).toNanos());
        assertThat(limiter.admit()).as("the place the first admission left is kept").isPositive();
        assertThat(limiter.admitAhead()).isZero();
        limiter.waitAhead(false);
        assertThat(limiter.admit()).as("full: the second admission is 600 ms old").isPositive();
        nanos.addAndGet(Duration.ofMillis(500).toNanos());
        assertThat(limiter.admit()).as("its place, once it left, is anybody's again").isZero();
    }

    @Test
    void a_message_that_leaves_late_counts_from_when_it_leaves_so_the_next_second_holds_no_more_than_the_rate() {
        SendRateLimiter limiter = new SendRateLimiter(2, nanos::get);
        long start = nanos.get();
        SendRateLimiter.Admission first = limiter.tryAdmit();
        assertThat(first.admitted()).isTrue();
        nanos.addAndGet(12_000_000L);
        // Left 12 ms after its admission (a thread that lost its core): counted from then.
        limiter.leaving(first);
        nanos.addAndGet(488_000_000L);
        assertThat(limiter.admit()).isZero();
        nanos.set(start + SendRateLimiter.HEADROOM.toNanos() + 1_000_000_000L);

        assertThat(limiter.admit()).as("the first left at 12 ms: its place frees a second and the headroom after that")
                .isEqualTo(Duration.ofMillis(12));
        nanos.addAndGet(12_000_000L);
        assertThat(limiter.admit()).isZero();
    }

    @Test
    void an_invalid_rate_fails_fast() {
        assertThatThrownBy(() -> new SendRateLimiter(-1)).hasMessageStartingWith("smtp.rate");
        assertThatThrownBy(() -> new SendRateLimiter(Double.NaN)).hasMessageStartingWith("smtp.rate");
    }

    @Test
    void a_lowered_rate_returns_the_last_seconds_sends_its_window_no_longer_holds_newest_first() {
        SendRateLimiter limiter = new SendRateLimiter(4, nanos::get);
        for (int i = 0; i < 4; i++) {
            assertThat(limiter.admit()).isZero();
            nanos.addAndGet(100_000_000L);
        }
        // Sent 400, 300, 200 and 100 ms ago; a window of 2 keeps the newest two.
        assertThat(limiter.changeRate(2)).containsExactly(300_000_000L, 400_000_000L);
        assertThat(limiter.recentAges()).containsExactly(100_000_000L, 200_000_000L);
        assertThat(limiter.changeRate(3)).as("a rising rate leaves nothing out").isEmpty();
        nanos.addAndGet(Duration.ofSeconds(2).toNanos());
        assertThat(limiter.changeRate(1)).as("nothing of the last second is left").isEmpty();
    }

    @Test
    void starting_after_other_runs_sends_forgets_a_full_second_assumed_before() {
        SendRateLimiter limiter = new SendRateLimiter(2, nanos::get);
        limiter.startFull();
        assertThat(limiter.admit()).isPositive();

        assertThat(limiter.startAfter(new long[] {600_000_000L})).as("its window holds it").isTrue();

        assertThat(limiter.admit()).as("one of two places taken by the other run's send").isZero();
        assertThat(limiter.admit()).as("then the window is full until that send is a second old")
                .isEqualTo(Duration.ofNanos(SendRateLimiter.HEADROOM.toNanos() + 400_000_000L));
    }

    @Test
    void handing_over_to_a_joiner_keeps_an_even_spread_of_the_last_second_and_hands_over_the_rest() {
        SendRateLimiter limiter = new SendRateLimiter(4, nanos::get);
        for (int i = 0; i < 4; i++) {
            assertThat(limiter.admit()).isZero();
            nanos.addAndGet(100_000_000L);
        }
        // Sent 400, 300, 200 and 100 ms ago: every other one stays, so a place frees up in 700 ms
        // (keeping the newest two, in 800 ms; with a whole second sent, in 500 ms against a second).
        assertThat(limiter.handOverTo(2)).containsExactly(200_000_000L, 400_000_000L);
        assertThat(limiter.recentAges()).containsExactly(100_000_000L, 300_000_000L);
        assertThat(limiter.admit()).isEqualTo(Duration.ofNanos(SendRateLimiter.HEADROOM.toNanos() + 700_000_000L));
        assertThat(limiter.handOverTo(4)).as("a rising rate hands nothing over").isEmpty();
    }
}
