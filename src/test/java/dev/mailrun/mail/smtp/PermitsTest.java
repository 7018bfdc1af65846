package dev.mailrun.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A paced message's wait for its permits, on a clock the test moves: while it parks, another
 * sender without a pace asks the relay's window for a place at every wake-up, as the pool's other
 * connections do.
 */
class PermitsTest {

    private static final long MS = 1_000_000L;

    private final AtomicLong nanos = new AtomicLong(1_000 * MS);
    private final long t0 = nanos.get();

    /** The clock moves by each park; after it, the other sender tries the relay once, until it got a place. */
    private final class OtherSender implements Permits.Parker {
        final SendRateLimiter relay;
        long admittedAt = -1;

        OtherSender(SendRateLimiter relay) {
            this.relay = relay;
        }

        @Override
        public long nanoTime() {
            return nanos.get();
        }

        @Override
        public void park(long n) {
            nanos.addAndGet(n);
            if (admittedAt < 0 && relay.admit().isZero()) {
                admittedAt = nanos.get() - t0;
            }
        }
    }

    @Test
    void a_message_its_pace_is_about_to_let_go_finds_the_relays_next_free_place_kept_for_it() {
        SendRateLimiter relay = new SendRateLimiter(2, nanos::get);
        SendRateLimiter pace = new SendRateLimiter(1, nanos::get);
        OtherSender other = new OtherSender(relay);
        // The relay's window (2 in 1.005 s) holds admissions at 0 and 500 ms; the pace's (1) one at 100 ms.
        assertThat(relay.admit()).isZero();
        move(100);
        assertThat(pace.admit()).isZero();
        move(400);
        assertThat(relay.admit()).isZero();

        boolean sent = new Permits(relay, PoolEvents.NONE, () -> {}, other)
                .await(Optional.of(pace), () -> Duration.ofSeconds(10), () -> false, Duration.ZERO).isPresent();

        assertThat(sent).isTrue();
        assertThat(nanos.get() - t0).as("it goes when its pace lets it (1,105 ms), not at the relay's place after (1,505 ms)")
                .isEqualTo(1_105 * MS);
        assertThat(other.admittedAt).as("the place that freed at 1,005 ms was kept from the other sender").isEqualTo(-1);
    }

    @Test
    void a_message_whose_pace_is_further_off_than_a_relay_spacing_keeps_no_place_from_the_others() {
        SendRateLimiter relay = new SendRateLimiter(2, nanos::get);
        SendRateLimiter pace = new SendRateLimiter(1, nanos::get);
        OtherSender other = new OtherSender(relay);
        // The pace's window frees at 1,605 ms; the relay's first place at 1,005 ms, 600 ms before
        // (the relay's spacing is 502.5 ms): that place is the other sender's.
        assertThat(relay.admit()).isZero();
        move(500);
        assertThat(relay.admit()).isZero();
        move(100);
        assertThat(pace.admit()).isZero();

        boolean sent = new Permits(relay, PoolEvents.NONE, () -> {}, other)
                .await(Optional.of(pace), () -> Duration.ofSeconds(10), () -> false, Duration.ZERO).isPresent();

        assertThat(sent).isTrue();
        assertThat(other.admittedAt).as("the other sender took the place at its first wake-up after 1,005 ms")
                .isBetween(1_005 * MS, 1_005 * MS + 50 * MS);
        assertThat(nanos.get() - t0).as("the paced message goes when its pace lets it: the 500 ms place has freed by then")
                .isEqualTo(1_605 * MS);
    }

    @Test
    void a_paced_message_that_leaves_late_counts_from_then_in_the_relays_window_and_its_paces() {
        SendRateLimiter relay = new SendRateLimiter(1, nanos::get);
        SendRateLimiter pace = new SendRateLimiter(1, nanos::get);
        Permits permits = new Permits(relay, PoolEvents.NONE, () -> {}, new OtherSender(new SendRateLimiter(1, nanos::get)));

        Permits.Admitted admitted = permits.await(Optional.of(pace), () -> Duration.ofSeconds(10), () -> false, Duration.ZERO)
                .orElseThrow();
        move(20);
        admitted.leaving();
        move(1_000);

        assertThat(relay.room()).as("the relay counts it from 20 ms: its place frees at 1,025 ms").isEqualTo(Duration.ofMillis(5));
        assertThat(pace.room()).as("so does the pace").isEqualTo(Duration.ofMillis(5));
    }

    private void move(long millis) {
        nanos.addAndGet(millis * MS);
    }
}
