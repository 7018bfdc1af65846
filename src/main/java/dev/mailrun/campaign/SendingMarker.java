package dev.mailrun.campaign;

import dev.mailrun.db.Transactions;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Marks a batch's recipients as sending just ahead of the SMTP workers: when a worker is about to
 * send to a recipient not yet marked, it and the next few (a window of about twice the connection
 * count) are marked in one statement. So a run that dies leaves unknown only the recipients whose
 * message may really have gone out — at most a window plus what was sent since the last flush —
 * while the rest of its batch goes back to the queue untouched.
 */
final class SendingMarker {

    private final DataSource dataSource;
    private final RecipientQueue queue;
    private final String runToken;
    private final Clock clock;
    private final int window;
    private final List<Long> order;
    private final Map<Long, Integer> position = new HashMap<>();
    private final boolean[] marked;
    private volatile boolean failed;

    SendingMarker(DataSource dataSource, RecipientQueue queue, String runToken, Clock clock, int window, List<Long> ids) {
        this.dataSource = dataSource;
        this.queue = queue;
        this.runToken = runToken;
        this.clock = clock;
        this.window = Math.max(1, window);
        this.order = List.copyOf(ids);
        this.marked = new boolean[ids.size()];
        for (int i = 0; i < ids.size(); i++) {
            position.put(ids.get(i), i);
        }
    }

    /**
     * Ensures {@code recipientId} is marked sending before its message is built and sent.
     *
     * @throws IllegalStateException when the rows could not be marked (database lost, or the run
     *                               no longer holds them): the message must not be sent
     */
    synchronized void beforeSend(long recipientId) {
        if (failed) {
            throw new IllegalStateException("recipients of this run can no longer be marked as sending");
        }
        Integer at = position.get(recipientId);
        if (at == null) {
            throw new IllegalStateException("recipient " + recipientId + " is not part of this batch");
        }
        if (marked[at]) {
            return;
        }
        List<Long> next = new ArrayList<>(window);
        for (int i = at; i < order.size() && next.size() < window; i++) {
            if (!marked[i]) {
                next.add(order.get(i));
            }
        }
        int changed;
        try {
            changed = Transactions.inTransaction(dataSource, c -> queue.markSending(c, runToken, next, clock.instant()));
        } catch (SQLException e) {
            failed = true;
            throw new IllegalStateException("could not mark recipients as sending: " + e.getMessage(), e);
        }
        if (changed < next.size()) {
            failed = true;
            throw new IllegalStateException("this run no longer holds its recipients (its lease was lost)");
        }
        for (long id : next) {
            marked[position.get(id)] = true;
        }
    }

    /** True once marking failed: results reported as fatal since then are this, not the relay. */
    boolean failed() {
        return failed;
    }
}
