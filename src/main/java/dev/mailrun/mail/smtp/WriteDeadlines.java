package dev.mailrun.mail.smtp;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Delayed;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The write timeouts of one pool's connections, watched by one thread that looks every 20 ms.
 * Given to the mail API as {@code mail.smtp.executor.writetimeout}.
 *
 * <p>Why: the mail API enforces {@code mail.smtp.writetimeout} by scheduling a task (close the
 * socket) before every write to the socket and cancelling it when the write returns. On its own
 * {@code ScheduledThreadPoolExecutor}, one per connection, each of those schedules finds the queue
 * empty and wakes the timer thread: a wake-up and two context switches per write, about five writes
 * per message, 0.12 of the two cores at 4,700 messages per second. Here a schedule puts the deadline
 * in a set and a cancel takes it out; the watcher scans the set every {@code tick} and runs the
 * tasks of writes past their deadline. A write therefore times out between its timeout and its
 * timeout plus one tick, and the watcher wakes {@code 1 / tick} times a second while writes are
 * happening, whatever their number. After a second with nothing to watch it sleeps until the next
 * schedule.
 *
 * <p>Only one-shot schedules are supported, as the mail API makes; periodic schedules and plain
 * execution are refused.
 */
final class WriteDeadlines extends AbstractExecutorService implements ScheduledExecutorService {

    /** Late by at most this much: small next to any write timeout, and 50 wake-ups a second. */
    static final Duration TICK = Duration.ofMillis(20);
    /** Empty scans before the watcher sleeps until a schedule wakes it: a second of ticks. */
    private static final int IDLE_SCANS = 50;

    private final Set<Deadline<?>> live = ConcurrentHashMap.newKeySet();
    private final LongSupplier nanoTime;
    private final long tickNanos;
    private final int idleScans;
    private final Thread watcher;
    private volatile boolean sleeping;
    private volatile boolean shutdown;

    private WriteDeadlines(LongSupplier nanoTime, Duration tick, int idleScans, String name, boolean watch) {
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        if (tick.isNegative() || tick.isZero()) {
            throw new IllegalArgumentException("tick must be positive, got " + tick);
        }
        if (idleScans < 1) {
            throw new IllegalArgumentException("idleScans must be at least 1, got " + idleScans);
        }
        this.tickNanos = tick.toNanos();
        this.idleScans = idleScans;
        if (watch) {
            watcher = new Thread(this::watch, name);
            watcher.setDaemon(true);
            watcher.start();
        } else {
            watcher = null;
        }
    }

    /** Watched by a daemon thread called {@code name}, on the system's nano time. */
    static WriteDeadlines watched(String name) {
        return watched(name, TICK, IDLE_SCANS);
    }

    /** Watched with another tick and idle count; for tests of the watcher's sleep and wake-up. */
    static WriteDeadlines watched(String name, Duration tick, int idleScans) {
        return new WriteDeadlines(System::nanoTime, tick, idleScans, name, true);
    }

    /** Not watched: {@link #runDue} runs what is due, on the time given; for tests. */
    static WriteDeadlines unwatched(LongSupplier nanoTime) {
        return new WriteDeadlines(nanoTime, TICK, IDLE_SCANS, "unwatched", false);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> task, long delay, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        if (shutdown) {
            throw new RejectedExecutionException("write deadlines are shut down");
        }
        Deadline<V> deadline = new Deadline<>(task, nanoTime.getAsLong() + unit.toNanos(delay));
        live.add(deadline);
        // Read after the add: the watcher sets sleeping before it looks at the set for the last
        // time, so either it sees this deadline or this sees it asleep.
        if (sleeping && watcher != null) {
            LockSupport.unpark(watcher);
        }
        return deadline;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
        return schedule(Executors.callable(task), delay, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
        throw new UnsupportedOperationException("write deadlines run once; no periodic schedules");
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, long initialDelay, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException("write deadlines run once; no periodic schedules");
    }

    @Override
    public void execute(Runnable command) {
        throw new RejectedExecutionException("write deadlines only run scheduled tasks");
    }

    /** Runs the tasks whose deadline has passed; returns how many ran. */
    int runDue() {
        long now = nanoTime.getAsLong();
        int ran = 0;
        for (Deadline<?> d : live) {
            if (d.due - now <= 0 && live.remove(d)) {
                d.run();
                ran++;
            }
        }
        return ran;
    }

    /** Deadlines scheduled and neither cancelled nor run. */
    int pending() {
        return live.size();
    }

    /** Whether the watcher is asleep until the next schedule; for tests. */
    boolean sleeping() {
        return sleeping;
    }

    private void watch() {
        int emptyScans = 0;
        while (!shutdown) {
            try {
                runDue();
            } catch (RuntimeException e) {
                // A task's failure is kept in its future; nothing else in a scan can throw.
            }
            emptyScans = live.isEmpty() ? emptyScans + 1 : 0;
            if (emptyScans < idleScans) {
                LockSupport.parkNanos(this, tickNanos);
                continue;
            }
            sleeping = true;
            if (live.isEmpty() && !shutdown) {
                LockSupport.park(this);
            }
            sleeping = false;
            emptyScans = 0;
        }
    }

    @Override
    public void shutdown() {
        shutdown = true;
        if (watcher != null) {
            LockSupport.unpark(watcher);
        }
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown();
        live.clear();
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown && (watcher == null || !watcher.isAlive());
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        if (watcher != null) {
            watcher.join(Math.max(1, unit.toMillis(timeout)));
        }
        return isTerminated();
    }

    /** One write's deadline: a task that runs once, unless cancelled first. */
    private final class Deadline<V> extends FutureTask<V> implements ScheduledFuture<V> {

        private final long due;

        Deadline(Callable<V> task, long due) {
            super(task);
            this.due = due;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            // Never interrupts: the task runs on the watcher, which must go on watching.
            boolean cancelled = super.cancel(false);
            live.remove(this);
            return cancelled;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(due - nanoTime.getAsLong(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
        }
    }
}
