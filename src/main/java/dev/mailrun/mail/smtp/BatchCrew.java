package dev.mailrun.mail.smtp;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The connections working on one batch: started at the pool's size for the batch, joined by more
 * while the batch runs when the pool's target grows (a batch against a distant relay can last many
 * seconds, and the first messages' times are what says more connections are needed), never two
 * threads on one connection. Once a connection of the batch retired (the relay could not be reached,
 * or turned it away) no more join this batch: more would only meet the same relay.
 */
final class BatchCrew {

    private final BatchCursor<?> cursor;
    private final ExecutorService threads;
    private final Consumer<SmtpConnection> work;
    private final List<Future<?>> running = new CopyOnWriteArrayList<>();
    private final Set<SmtpConnection> used = new HashSet<>();
    private boolean retired;

    /** @param work the sending loop of one connection; it calls {@link #grow} after each message */
    BatchCrew(BatchCursor<?> cursor, ExecutorService threads, Consumer<SmtpConnection> work) {
        this.cursor = cursor;
        this.threads = threads;
        this.work = work;
    }

    synchronized void start(List<SmtpConnection> connections) {
        connections.forEach(this::add);
    }

    /**
     * Adds connections while fewer work than {@code target} says and items are left to hand out;
     * {@code next} gives a connection not yet in the batch (an open one first, else a new one).
     */
    synchronized void grow(IntSupplier target, Supplier<SmtpConnection> next) {
        if (retired) {
            return;
        }
        int want = Math.min(target.getAsInt(), used.size() + cursor.left());
        while (used.size() < want) {
            SmtpConnection c = next.get();
            if (c == null) {
                return;
            }
            add(c);
        }
    }

    synchronized boolean uses(SmtpConnection connection) {
        return used.contains(connection);
    }

    synchronized void retired() {
        retired = true;
    }

    private void add(SmtpConnection connection) {
        used.add(connection);
        running.add(threads.submit(() -> work.accept(connection)));
    }

    /**
     * Waits until every connection of the batch finished, those that joined while waiting included.
     * Interrupted, it halts the cursor but still waits for messages in flight: each needs its result.
     */
    void awaitAll() {
        boolean interrupted = false;
        int waited = 0;
        while (waited < running.size()) {
            Future<?> future = running.get(waited);
            try {
                future.get();
                waited++;
            } catch (InterruptedException e) {
                interrupted = true;
                cursor.halt();
            } catch (ExecutionException e) {
                throw new IllegalStateException("a sending thread failed unexpectedly", e.getCause());
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
