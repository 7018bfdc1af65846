package dev.mailrun.scheduler;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** How the {@link Worker} waits for its next slot; tests substitute one that moves a settable clock. */
public interface Sleeper {

    /** Returns once the clock has reached {@code wakeAt}, or earlier after {@link #wakeUp()}. */
    void sleepUntil(Instant wakeAt) throws InterruptedException;

    /** Ends the current and any later sleep at once (used to stop the worker). */
    void wakeUp();

    /** Waits on a monitor, re-reading {@code clock} so an early wake-up never fires a tick before its slot. */
    static Sleeper onClock(Clock clock) {
        return new Sleeper() {
            private boolean woken;

            @Override
            public synchronized void sleepUntil(Instant wakeAt) throws InterruptedException {
                while (!woken) {
                    long nanos = Duration.between(clock.instant(), wakeAt).toNanos();
                    if (nanos <= 0) {
                        return;
                    }
                    // Round up: returning even a fraction of a millisecond early would tick before
                    // the slot, find nothing due, and then sleep through the whole slot.
                    wait((nanos + 999_999) / 1_000_000);
                }
            }

            @Override
            public synchronized void wakeUp() {
                woken = true;
                notifyAll();
            }
        };
    }
}
