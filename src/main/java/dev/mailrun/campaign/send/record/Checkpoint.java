package dev.mailrun.campaign.send.record;

import dev.mailrun.campaign.send.scope.SendCounters;
import dev.mailrun.scheduler.RunContext;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The run's checkpointed counters, and what their writes found. The counters are written into the
 * task metadata by the transaction that changes the rows they count (a flush, a claim that found
 * suppressed recipients), never on their own, so a crash leaves counters that match the table.
 *
 * <p>Writers hold {@link #exclusive} from reading {@link #counters()} until {@link #committed}:
 * two writers never start from the same counters, so neither overwrites what the other added.
 */
public final class Checkpoint {

    @FunctionalInterface
    public interface SqlWork<T> {
        T run() throws SQLException;
    }

    private final RunContext ctx;
    private final Object writers = new Object();
    private volatile SendCounters counters;
    private volatile boolean leaseLost;
    private volatile Optional<String> pausedFor = Optional.empty();

    public Checkpoint(RunContext ctx, SendCounters start) {
        this.ctx = ctx;
        this.counters = start;
    }

    /** Runs {@code work} as the only writer of the counters. */
    public <T> T exclusive(SqlWork<T> work) throws SQLException {
        synchronized (writers) {
            return work.run();
        }
    }

    /** The counters as last committed. */
    public SendCounters counters() {
        return counters;
    }

    /**
     * Puts {@code next} into the task metadata and saves it in the caller's transaction. False when
     * the lease is lost: the caller rolls back and calls {@link #markLeaseLost()}.
     */
    public boolean write(Connection c, SendCounters next) throws SQLException {
        ctx.metadata().putValue(SendCounters.METADATA_KEY, next);
        return ctx.checkpoint(c);
    }

    /**
     * Extends the lease in the caller's transaction, for one that changes no counter (a flush's
     * marks): the task row's lease is the fence, and the metadata, unchanged, is not written again.
     * False when the lease is lost: the caller rolls back and calls {@link #markLeaseLost()}.
     */
    boolean fence(Connection c) throws SQLException {
        return ctx.extendLease(c);
    }

    /** The transaction that wrote {@code next} committed. */
    public void committed(SendCounters next) {
        counters = next;
    }

    /** A write was refused (the lease was lost) or found its rows held by another run: this run writes nothing more. */
    public void markLeaseLost() {
        leaseLost = true;
    }

    public boolean isLeaseLost() {
        return leaseLost;
    }

    /** The campaign was paused by this run, for {@code reason}. */
    void paused(String reason) {
        pausedFor = Optional.of(reason);
    }

    public Optional<String> pausedFor() {
        return pausedFor;
    }
}
