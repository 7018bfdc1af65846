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
        // The relay's window (2 in 1.003 s) holds admissions at 0 and 500 ms; the pace's (1) one at 100 ms.
        assertThat(relay.admit()).isZero();
        move(100);
        assertThat(pace.admit()).isZero();
        move(400);
        assertThat(relay.admit()).isZero();

        boolean sent = new Permits(relay, PoolEvents.NONE, () -> {}, other)
                .await(Optional.of(pace), () -> Duration.ofSeconds(10), () -> false, Duration.ZERO);

        assertThat(sent).isTrue();
        assertThat(nanos.get() - t0).as("it goes when its pace lets it (1,103 ms), not at the relay's place after (1,503 ms)")
                .isEqualTo(1_103 * MS);
        assertThat(other.admittedAt).as("the place that freed at 1,003 ms was kept from the other sender").isEqualTo(-1);
    }

    @Test
    void a_message_whose_pace_is_further_off_than_a_relay_spacing_keeps_no_place_from_the_others() {
        SendRateLimiter relay = new SendRateLimiter(2, nanos::get);
        SendRateLimiter pace = new SendRateLimiter(1, nanos::get);
        OtherSender other = new OtherSender(relay);
        // The pace's window frees at 1,603 ms; the relay's first place at 1,003 ms, 600 ms before
        // (the relay's spacing is 501.5 ms): that place is the other sender's.
        assertThat(relay.admit()).isZero();
        move(500);
        assertThat(relay.admit()).isZero();
        move(100);
        assertThat(pace.admit()).isZero();

        boolean sent = new Permits(relay, PoolEvents.NONE, () -> {}, other)
                .await(Optional.of(pace), () -> Duration.ofSeconds(10), () -> false, Duration.ZERO);

        assertThat(sent).isTrue();
        assertThat(other.admittedAt).as("the other sender took the place at its first wake-up after 1,003 ms")
                .isBetween(1_003 * MS, 1_003 * MS + 50 * MS);
        assertThat(nanos.get() - t0).as("the paced message goes when its pace lets it: the 500 ms place has freed by then")
                .isEqualTo(1_603 * MS);
    }

    private void move(long millis) {
        nanos.addAndGet(millis * MS);
    }
}
