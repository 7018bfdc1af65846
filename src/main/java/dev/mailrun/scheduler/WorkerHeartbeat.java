package dev.mailrun.scheduler;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * When this worker's scheduler last showed it is alive: the {@link Worker}'s tick loop beats every
 * {@link #PERIOD} while it waits for the next slot and around every tick, and the live run's lease
 * heartbeat beats while a run holds the loop. Readiness reads it: a loop that stopped beating is stuck.
 */
public final class WorkerHeartbeat {

    /** How often the waiting tick loop beats. */
    public static final Duration PERIOD = Duration.ofSeconds(5);
    /**
     * Older than this and the worker is not alive: three lease heartbeats missed during a run (they
     * are at most 20 s apart, {@code tick.heartbeat}), or many loop beats while waiting.
     */
    public static final Duration MAX_AGE = Duration.ofSeconds(60);

    private final Clock clock;
    private volatile Instant last;

    public WorkerHeartbeat(Clock clock) {
        this.clock = clock;
    }

    public void beat() {
        last = clock.instant();
    }

    /** Empty until the first beat. */
    public Optional<Instant> last() {
        return Optional.ofNullable(last);
    }

    /** Whether the last beat is at most {@link #MAX_AGE} old by the clock. */
    public boolean isFresh() {
        Instant l = last;
        return l != null && !l.plus(MAX_AGE).isBefore(clock.instant());
    }
}
