package dev.mailrun.scheduler;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * What a handler gets for one run. Every write made through it carries the run token, so once the
 * lease is lost (another worker took the task over) all of them are refused and change nothing.
 */
public interface RunContext {

    long taskId();

    String taskName();

    /** Identifies this run in {@code task}, {@code task_run} and anything the handler stamps with it. */
    String runToken();

    /** The slot this run serves. */
    Instant scheduledFor();

    Duration interval();

    /** {@code scheduledFor + interval − safety margin}: finish by then so the next slot finds the task idle. */
    Instant deadline();

    /** The scheduler's clock, the one {@link #deadline()} is measured by. */
    Clock clock();

    /** The task's metadata as of the claim; change it freely, {@link #checkpoint()} saves it. */
    Metadata metadata();

    /** Saves the metadata now and extends the lease; false when the lease is lost (stop at once). */
    boolean checkpoint() throws SQLException;

    /**
     * Saves the metadata with the caller's connection, inside the caller's transaction, so it commits
     * or rolls back with the caller's other writes. False when the lease is lost: the caller must
     * roll back, it is a zombie.
     */
    boolean checkpoint(Connection connection) throws SQLException;

    /**
     * Extends the lease with the caller's connection, inside the caller's transaction, without saving
     * the metadata: the fence for a transaction that changes nothing the metadata counts. False when
     * the lease is lost: the caller must roll back.
     */
    boolean extendLease(Connection connection) throws SQLException;

    /** Extends the lease now (the scheduler also does so periodically); false when the lease is lost. */
    boolean heartbeat() throws SQLException;

    /** True once the worker is shutting down or the lease is lost: stop at the next safe point. */
    boolean stopRequested();

    /** True once a write was refused because another run owns the task. */
    boolean leaseLost();

    /** After a successful run, the next run is at {@code at} instead of the next slot. */
    void runNextAt(Instant at);

    /** After a successful run, disable the task (e.g. the work is finished). */
    void disableAfterThisRun();

    /**
     * This run found nothing to do now and did nothing (its report says why): it is recorded
     * {@code idle} rather than {@code succeeded}, and run listings that show work leave it out.
     * The schedule is as after a success. Ignored when the handler throws or the run was asked to stop.
     */
    void idle();

    /**
     * This run could not do its work because something it needs is unavailable (every relay down):
     * it is recorded {@code blocked}, which is no success (the metrics' last success does not move),
     * and the schedule goes on as after a success, without backoff. The last of {@link #idle()} and
     * this called wins. Ignored when the handler throws or the run was asked to stop.
     */
    void blocked();

    /** The numbers stored in this run's {@code task_run} row; the last report wins. */
    void report(RunReport report);
}
