package dev.mailrun.testing;

import dev.mailrun.campaign.send.scope.Timing;
import dev.mailrun.scheduler.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.LongSupplier;

/** {@link Timing} for the sending task in tests. */
public final class TestTiming {

    private TestTiming() {
    }

    /**
     * Real intervals and waits, whatever the clock: a wait lasts as long as {@code clock} says, in
     * real time, so a clock that stands still or steps on every read cannot hang a run.
     */
    public static Timing realTime(Clock clock) {
        return new Timing(clock, System::nanoTime, new Sleeper() {
            @Override
            public void sleepUntil(Instant wakeAt) throws InterruptedException {
                long millis = Duration.between(clock.instant(), wakeAt).toMillis();
                if (millis > 0) {
                    Thread.sleep(millis);
                }
            }

            @Override
            public void wakeUp() {
            }
        });
    }

    /** Intervals from {@code nanoTime}; a wait moves {@code clock} to the wake-up time at once. */
    public static Timing on(SettableClock clock, LongSupplier nanoTime) {
        return new Timing(clock, nanoTime, new Sleeper() {
            @Override
            public void sleepUntil(Instant wakeAt) {
                if (wakeAt.isAfter(clock.instant())) {
                    clock.set(wakeAt);
                }
            }

            @Override
            public void wakeUp() {
            }
        });
    }
}
