package dev.mailrun.scheduler;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code worker} mode: a tick at start, then one at every slot aligned to {@code tickInterval}
 * since the epoch (UTC: with 5 minutes, at :00, :05, …). The next slot is computed from the clock
 * after each tick, so run length never shifts the grid; a tick that outlasts a slot makes the loop
 * skip to the next one instead of firing a burst. Errors of a tick are logged and the loop goes on.
 */
public final class Worker implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(Worker.class);

    private final Scheduler scheduler;
    private final Duration tickInterval;
    private final Clock clock;
    private final Sleeper sleeper;
    private final Optional<WorkerHeartbeat> heartbeat;
    private volatile boolean stopped;
    private volatile Thread thread;

    public Worker(Scheduler scheduler, Duration tickInterval, Clock clock, Sleeper sleeper) {
        this(scheduler, tickInterval, clock, sleeper, Optional.empty());
    }

    /**
     * A worker whose loop beats {@code heartbeat} around every tick and every {@link WorkerHeartbeat#PERIOD}
     * while it waits for the next slot.
     */
    public Worker(Scheduler scheduler, Duration tickInterval, Clock clock, Sleeper sleeper, WorkerHeartbeat heartbeat) {
        this(scheduler, tickInterval, clock, sleeper, Optional.of(heartbeat));
    }

    private Worker(Scheduler scheduler, Duration tickInterval, Clock clock, Sleeper sleeper,
                   Optional<WorkerHeartbeat> heartbeat) {
        this.heartbeat = Objects.requireNonNull(heartbeat, "heartbeat");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        NewTask.requirePositive(tickInterval, "tickInterval");
        this.tickInterval = tickInterval;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /** A worker that really waits, with the default 5-minute tick interval. */
    public static Worker of(Scheduler scheduler, Clock clock) {
        return new Worker(scheduler, Duration.ofMinutes(5), clock, Sleeper.onClock(clock));
    }

    /** The first tick slot strictly after {@code now}. */
    public static Instant nextSlot(Instant now, Duration tickInterval) {
        long ms = tickInterval.toMillis();
        return Instant.ofEpochMilli(Math.floorDiv(now.toEpochMilli(), ms) * ms + ms);
    }

    /** Ticks on the calling thread until {@link #stop()}. */
    @Override
    public void run() {
        thread = Thread.currentThread();
        // WorkerCommand announces the start with the configured interval and listeners; one line is enough.
        log.debug("tick loop running, slots every {} ms", tickInterval.toMillis());
        while (!stopped) {
            beat();
            tickSafely();
            beat();
            if (stopped) {
                break;
            }
            try {
                waitFor(nextSlot(clock.instant(), tickInterval));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        log.info("Worker stopped");
    }

    /** Runs {@link #run()} on a new thread named {@code mailrun-worker}. */
    public Thread start() {
        Thread t = new Thread(this, "mailrun-worker");
        thread = t;
        t.start();
        return t;
    }

    /** Ends the loop after the current tick; the live run, if any, is asked to stop. */
    void stop() {
        stopped = true;
        sleeper.wakeUp();
        scheduler.requestStop();
    }

    /**
     * Stops within about {@code grace}: the live run is asked to stop, then given the grace period to
     * checkpoint and release its lease (see {@link Scheduler#shutdown}).
     *
     * @return true when the loop ended and nothing was left running
     */
    public boolean shutdown(Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        stop();
        boolean idle = scheduler.shutdown(grace);
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return idle && !t.isAlive();
        }
        return idle;
    }

    /** Sleeps until {@code slot}; with a heartbeat, in steps of at most its period, beating after each. */
    private void waitFor(Instant slot) throws InterruptedException {
        if (heartbeat.isEmpty()) {
            sleeper.sleepUntil(slot);
            return;
        }
        while (!stopped) {
            Instant now = clock.instant();
            if (!now.isBefore(slot)) {
                return;
            }
            Instant step = now.plus(WorkerHeartbeat.PERIOD);
            sleeper.sleepUntil(step.isBefore(slot) ? step : slot);
            beat();
        }
    }

    private void beat() {
        heartbeat.ifPresent(WorkerHeartbeat::beat);
    }

    private void tickSafely() {
        try {
            TickSummary summary = scheduler.tick();
            if (!summary.entries().isEmpty()) {
                log.debug("Tick at {}: {}", summary.at(), summary.entries());
            }
        } catch (Exception | LinkageError | AssertionError e) {
            log.error("Tick failed; the worker keeps running and tries again at the next slot", e);
        }
    }
}
