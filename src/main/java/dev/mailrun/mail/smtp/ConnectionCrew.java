package dev.mailrun.mail.smtp;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The pool's connections at work, one thread each, never two on one connection. Each takes the next
 * item of the newest batch; one that finishes the last message of a batch goes on with the next batch
 * if it was handed in meanwhile, so a batch boundary leaves no connection idle while the last
 * messages of the batch before are still on the wire (against a relay 200 ms away a message takes
 * about 800 ms, and a batch that waited for its slowest message lost about that much of the relay's
 * allowance each time). A connection with nothing left to take stops working until a batch needs it.
 *
 * <p>Connections join the newest batch while the pool's target grows (a batch against a distant
 * relay can last many seconds, and the first messages' times are what says more are needed); once a
 * connection of a batch retired (the relay could not be reached, or turned it away), no more join
 * that batch. A connection that retires from a batch after a newer one was handed in has not tried
 * the newer one: the pool is asked to grow for it before that connection counts as gone, or a newer
 * batch handed in while every connection was still on the batch before would come back untried
 * whole, and the relay that dropped them would never be tried again, nor found down.
 */
final class ConnectionCrew {

    /** Sends one item on one connection; false when the connection retires and takes no more items. */
    @FunctionalInterface
    interface Work {
        boolean send(SmtpConnection connection, PoolBatch batch, Outgoing item, Runnable built);
    }

    private final ExecutorService threads;
    private final Work work;
    private final Runnable regrow;
    private final Set<SmtpConnection> busy = new HashSet<>();
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private PoolBatch current;

    /** @param regrow asks the pool to add connections for the newest batch ({@link #grow}), under this crew's lock */
    ConnectionCrew(ExecutorService threads, Work work, Runnable regrow) {
        this.threads = threads;
        this.work = work;
        this.regrow = regrow;
    }

    /**
     * Makes {@code batch} the one every connection takes from, and sets to work as many more as
     * {@code target} wants for it (at most one per item) beyond those still finishing the batch
     * before, which join it as they finish. {@code pick} gives that many connections not at work.
     */
    synchronized void start(PoolBatch batch, int target, int items, IntFunction<List<SmtpConnection>> pick) {
        current = batch;
        int more = Math.min(target, items) - busy.size();
        for (SmtpConnection c : pick.apply(Math.max(0, more))) {
            if (!busy.contains(c)) {
                add(c);
            }
        }
        notifyAll();
    }

    /**
     * Adds connections while fewer work than {@code target} says and items of the newest batch are
     * left to hand out; {@code next} gives a connection not at work (an open one first, else a new
     * one), or null.
     */
    synchronized void grow(IntSupplier target, Supplier<SmtpConnection> next) {
        if (current == null || current.retired) {
            return;
        }
        int want = Math.min(target.getAsInt(), busy.size() + current.cursor().left());
        while (busy.size() < want) {
            SmtpConnection c = next.get();
            if (c == null) {
                return;
            }
            add(c);
        }
    }

    /** Items of the newest batch left to hand out that no pace of their own holds back. */
    synchronized int unpacedLeft() {
        return current == null || current.retired ? 0 : current.cursor().unpacedLeft();
    }

    /** True when no connection is at work: no message is on the wire. */
    synchronized boolean idle() {
        return busy.isEmpty();
    }

    synchronized boolean busy(SmtpConnection connection) {
        return busy.contains(connection);
    }

    synchronized void retired(PoolBatch batch) {
        batch.retired = true;
    }

    private void add(SmtpConnection connection) {
        busy.add(connection);
        try {
            threads.submit(() -> loop(connection));
        } catch (RejectedExecutionException e) {
            // The pool is closing: nothing more is sent.
            busy.remove(connection);
        }
    }

    private void loop(SmtpConnection connection) {
        PoolBatch retiredFrom = null;
        try {
            while (true) {
                PoolBatch batch;
                Optional<Outgoing> item;
                synchronized (this) {
                    batch = current;
                    item = batch.cursor().next();
                    if (item.isEmpty()) {
                        return;
                    }
                    batch.taken++;
                }
                Runnable built = passedOnce(batch);
                boolean goOn;
                try {
                    goOn = work.send(connection, batch, item.get(), built);
                } finally {
                    built.run();
                }
                if (!goOn) {
                    retiredFrom = batch;
                    return;
                }
            }
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
            synchronized (this) {
                if (current != null) {
                    current.cursor().halt();
                }
            }
        } finally {
            synchronized (this) {
                busy.remove(connection);
                if (retiredFrom != null && current != retiredFrom) {
                    // Before the waiters see this connection gone: the newer batch gets its own try.
                    regrow.run();
                }
                notifyAll();
            }
        }
    }

    /** Counts one item of {@code batch} as past its build the first time it runs, and wakes the waiters. */
    private Runnable passedOnce(PoolBatch batch) {
        boolean[] counted = {false};
        return () -> {
            synchronized (this) {
                if (!counted[0]) {
                    counted[0] = true;
                    batch.passed++;
                    notifyAll();
                }
            }
        };
    }

    /**
     * Waits until every item of {@code batch} was handed out and built (its recipient marked in
     * flight), or no connection is left at work to take the rest; its last messages may still be on
     * the wire. Interrupted, it halts the batch and goes on waiting: each item handed out needs its result.
     */
    synchronized void awaitDispatched(PoolBatch batch) {
        waitUntil(() -> batch.dispatched() || busy.isEmpty(), batch);
    }

    /** Waits until no connection is at work: every item handed out has its result. */
    synchronized void awaitIdle() {
        waitUntil(busy::isEmpty, current);
    }

    /** A sending thread that failed unexpectedly, once: it halted the batch it was on. */
    Optional<RuntimeException> takeFailure() {
        return Optional.ofNullable(failure.getAndSet(null));
    }

    private void waitUntil(BooleanSupplier done, PoolBatch halting) {
        boolean interrupted = false;
        while (!done.getAsBoolean()) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
                if (halting != null) {
                    halting.cursor().halt();
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
