package dev.mailrun.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class SleeperTest {

    /** A clock on real elapsed time, at nanosecond resolution. */
    private static final class ElapsedClock extends Clock {
        private final Instant base = Instant.parse("2026-11-21T09:59:59Z");
        private final long start = System.nanoTime();

        @Override
        public Instant instant() {
            return base.plusNanos(System.nanoTime() - start);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    @Test
    void a_sleep_never_returns_before_its_slot_even_by_a_fraction_of_a_millisecond() throws Exception {
        ElapsedClock clock = new ElapsedClock();
        Sleeper sleeper = Sleeper.onClock(clock);
        for (int i = 0; i < 20; i++) {
            Instant wakeAt = clock.instant().plusNanos(400_000 + i * 37_000L); // under a millisecond away
            sleeper.sleepUntil(wakeAt);
            assertThat(clock.instant()).isAfterOrEqualTo(wakeAt);
        }
    }
}
