package dev.mailrun.campaign.send.record;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongPredicate;

/**
 * Keeps a batch's recipients marked in flight (the run's {@code recipient_in_flight} row) just
 * ahead of the SMTP workers.
 *
 * <p>The marks are written by the {@link ResultFlusher}'s flushes, just before their results, in a
 * transaction of their own fenced by the task's lease. The marker only decides what to mark: it
 * asks for {@code ahead} recipients beyond the furthest one handed out, and asks for a flush when
 * fewer than a quarter of those are left, so the workers wait for the database only when they
 * outrun it (and before the first message of a batch).
 *
 * <p>What a crash leaves {@code unknown} is exactly what is marked and not yet recorded: messages
 * in flight (at most one per connection), recipients marked and not yet handed to a worker (at
 * most {@code ahead}: a flush commits marks only up to {@code ahead} beyond where the workers were
 * when they asked for it), and results not yet written. A flush writes its results after its
 * marks, so a crash between the two finds both the new marks and the results of what the workers
 * sent from the marks before them. The flush therefore says how much {@code room} its marks have
 * ({@link #take(int)}): one flush less the results waiting to be written, of which the marks not
 * yet handed out and the new ones may take up all. What is marked and not recorded then stays
 * within the connections plus one flush at every moment, whatever the number of connections. The
 * rest of the batch goes back to the queue untouched.
 *
 * <p>Recipients are marked in batch order: everything before {@code markedUpTo} is marked.
 */
public final class BatchMarker implements InFlightMarking {

    private final int ahead;
    private final Runnable flushRequest;
    private final LongPredicate awaitingResult;
    private final DatabaseWaits waits;
    private final List<Long> order;
    private final Map<Long, Integer> position = new HashMap<>();

    private int requestedUpTo;   // marks wanted up to here (exclusive)
    private int markedUpTo;      // committed marks end here (exclusive)
    private int handedUpTo;      // handed to a worker up to here (exclusive), marked or waiting for it
    private boolean taken;       // a flush is writing marks right now
    private volatile String failure;

    /**
     * @param ahead          how many recipients to keep marked beyond the furthest one handed out
     * @param flushRequest   asks the run's flush thread to flush soon (the first marks are asked
     *                       for when the result buffer starts watching this marker)
     * @param awaitingResult true while a recipient has no result yet; one that has (handed back
     *                       untried when the batch stopped) is never marked
     */
    BatchMarker(int ahead, List<Long> ids, Runnable flushRequest, LongPredicate awaitingResult) {
        this(ahead, ids, flushRequest, awaitingResult, DatabaseWaits.NONE);
    }

    /** @param waits told when a worker waits for its recipient's mark: the database holds it back then */
    public BatchMarker(int ahead, List<Long> ids, Runnable flushRequest, LongPredicate awaitingResult,
                       DatabaseWaits waits) {
        this.ahead = Math.max(1, ahead);
        this.flushRequest = flushRequest;
        this.awaitingResult = awaitingResult;
        this.waits = waits;
        this.order = List.copyOf(ids);
        for (int i = 0; i < ids.size(); i++) {
            position.put(ids.get(i), i);
        }
        synchronized (this) {
            requestedUpTo = Math.min(order.size(), this.ahead);
        }
    }

    /**
     * How far ahead the run keeps recipients marked: half a flush, and two per connection where
     * that is more, but never more than a flush: the marks ahead, the results a flush writes after
     * its marks and the messages in flight are what a crash may leave unknown, and the flush's
     * {@code room} keeps the first two within one flush. At half a flush they rarely fill it; three
     * quarters of a flush, without that room, left 112 unknown after one kill of four
     * connections.
     */
    public static int ahead(int connections, int flushEvery) {
        return Math.min(Math.max(1, flushEvery), Math.max(2 * connections, flushEvery / 2));
    }

    /**
     * Returns once {@code recipientId} is marked in flight, so its message may be sent.
     *
     * @throws IllegalStateException when the rows could not be marked (database lost, or the run
     *                               no longer holds them): the message must not be sent
     */
    public void beforeSend(long recipientId) {
        Integer at = position.get(recipientId);
        if (at == null) {
            throw new IllegalStateException("recipient " + recipientId + " is not part of this batch");
        }
        boolean request = false;
        synchronized (this) {
            handedUpTo = Math.max(handedUpTo, at + 1);
            int wanted = Math.min(order.size(), at + 1 + ahead);
            // Ask again once fewer than a quarter of the marks ahead are left: a flush takes a few
            // milliseconds and the workers must not run dry meanwhile, but each flush is a
            // transaction. With the default 50 ahead, asking at half left marked 27 recipients per
            // flush, at a quarter 38: a quarter fewer commits and less CPU per message at the same
            // messages per second.
            if (wanted > requestedUpTo && requestedUpTo - (at + 1) < Math.max(1, ahead / 4)) {
                requestedUpTo = wanted;
                request = true;
            }
        }
        if (request) {
            flushRequest.run();
        }
        synchronized (this) {
            boolean waited = markedUpTo <= at && failure == null;
            if (waited) {
                waits.begins();
            }
            try {
                while (markedUpTo <= at) {
                    if (failure != null) {
                        throw new IllegalStateException(failure);
                    }
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while marking recipients in flight", e);
                    }
                }
            } finally {
                if (waited) {
                    waits.ends();
                }
            }
        }
    }

    /**
     * For the flush: the recipients to mark now, if any, so that those marked and not yet handed
     * to a worker, with the new ones, are at most {@code room}. Call {@link #committed} or
     * {@link #fail} after.
     */
    @Override
    public synchronized Optional<Marks> take(int room) {
        return takeNew(room - untried());
    }

    /**
     * Recipients marked and not yet handed to a worker (counting any left unmarked among them,
     * which already had a result). Only the workers lower it, until the next marks commit.
     */
    synchronized int untried() {
        return Math.max(0, markedUpTo - handedUpTo);
    }

    /**
     * The recipients to mark now, at most {@code most} of them.
     *
     * <p>Recipients that already have a result are left out. When a batch stops early, a worker
     * may ask for marks (for the message it is about to send) after another reported recipients
     * further on as not attempted, and a flush may already have written their release; marked
     * now, they would stay in flight with no result to come, while the queue, which a claim
     * no longer writes to, gives them to the next batch.
     */
    synchronized Optional<Marks> takeNew(int most) {
        if (taken || failure != null || markedUpTo >= requestedUpTo || most <= 0) {
            return Optional.empty();
        }
        taken = true;
        int upTo = Math.min(requestedUpTo, markedUpTo + most);
        List<Long> ids = new ArrayList<>(upTo - markedUpTo);
        for (long id : order.subList(markedUpTo, upTo)) {
            if (awaitingResult.test(id)) {
                ids.add(id);
            }
        }
        return Optional.of(new Marks(ids, upTo));
    }

    /** True while marks were asked for and not yet written: the flush is due. */
    @Override
    public synchronized boolean wanted() {
        return !taken && failure == null && markedUpTo < requestedUpTo;
    }

    @Override
    public synchronized void committed(Marks marks) {
        taken = false;
        markedUpTo = Math.max(markedUpTo, marks.upTo());
        notifyAll();
    }

    /** The marks could not be written: nothing more of this batch may be sent. */
    @Override
    public synchronized void fail(String problem) {
        taken = false;
        if (failure == null) {
            failure = problem;
        }
        notifyAll();
    }

    /** True once marking failed: results reported as fatal since then are this, not the relay. */
    @Override
    public boolean failed() {
        return failure != null;
    }
}
