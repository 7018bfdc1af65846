package dev.mailrun.campaign;

import dev.mailrun.db.Transactions;
import java.sql.SQLException;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import javax.sql.DataSource;

/**
 * Marks a batch's recipients as sending just ahead of the SMTP workers, a window (about twice the
 * connection count) at a time in one statement. Marking runs on a helper thread and stays up to two
 * windows ahead, so the workers wait for it only when they outrun it. A run that dies therefore
 * leaves unknown only the recipients whose message may have gone out plus at most two windows of
 * untried ones; the rest of its batch goes back to the queue untouched.
 *
 * <p>Windows are marked in batch order, one statement at a time: everything before
 * {@code markedUpTo} is marked.
 */
final class SendingMarker {

    private final DataSource dataSource;
    private final RecipientQueue queue;
    private final String runToken;
    private final Clock clock;
    private final int window;
    private final Executor helper;
    private final List<Long> order;
    private final Map<Long, Integer> position = new HashMap<>();

    private int requestedUpTo;   // windows handed to the helper end here (exclusive)
    private int markedUpTo;      // committed marks end here (exclusive)
    private boolean marking;     // a statement is running
    private volatile String failure;

    SendingMarker(DataSource dataSource, RecipientQueue queue, String runToken, Clock clock, int window,
                  List<Long> ids, Executor helper) {
        this.dataSource = dataSource;
        this.queue = queue;
        this.runToken = runToken;
        this.clock = clock;
        this.window = Math.max(1, window);
        this.helper = helper;
        this.order = List.copyOf(ids);
        for (int i = 0; i < ids.size(); i++) {
            position.put(ids.get(i), i);
        }
        synchronized (this) {
            requestedUpTo = Math.min(order.size(), 2 * this.window);
            startNext();
        }
    }

    /**
     * Returns once {@code recipientId} is marked sending, so its message may be built and sent.
     *
     * @throws IllegalStateException when the rows could not be marked (database lost, or the run
     *                               no longer holds them): the message must not be sent
     */
    synchronized void beforeSend(long recipientId) {
        Integer at = position.get(recipientId);
        if (at == null) {
            throw new IllegalStateException("recipient " + recipientId + " is not part of this batch");
        }
        // Keep marking up to two windows ahead of the furthest item handed out.
        int wanted = Math.min(order.size(), at + 1 + 2 * window);
        if (wanted > requestedUpTo) {
            requestedUpTo = wanted;
            startNext();
        }
        while (markedUpTo <= at) {
            if (failure != null) {
                throw new IllegalStateException(failure);
            }
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while marking recipients as sending", e);
            }
        }
    }

    /** Starts the next window's statement if none is running and one is wanted. Holds the lock. */
    private void startNext() {
        if (marking || failure != null || markedUpTo >= requestedUpTo) {
            return;
        }
        int from = markedUpTo;
        int to = Math.min(requestedUpTo, from + window);
        List<Long> ids = order.subList(from, to);
        marking = true;
        helper.execute(() -> mark(ids, to));
    }

    private void mark(List<Long> ids, int to) {
        String problem = null;
        try {
            int changed = Transactions.inTransaction(dataSource, c -> queue.markSending(c, runToken, ids, clock.instant()));
            if (changed < ids.size()) {
                problem = "this run no longer holds its recipients (its lease was lost)";
            }
        } catch (SQLException | RuntimeException e) {
            problem = "could not mark recipients as sending: " + e.getMessage();
        }
        synchronized (this) {
            marking = false;
            if (problem != null) {
                failure = problem;
            } else {
                markedUpTo = to;
                startNext();
            }
            notifyAll();
        }
    }

    /** True once marking failed: results reported as fatal since then are this, not the relay. */
    boolean failed() {
        return failure != null;
    }
}
