package dev.mailrun.scheduler;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The Java code behind a task. A task row names its handler; the {@link HandlerRegistry} maps the
 * name to an instance. One instance may serve several tasks, never two runs of the same task at once.
 */
public interface TaskHandler {

    /** The name task rows use in their {@code handler} column. */
    String name();

    /**
     * Does one run's work. Returning normally means success (or an orderly stop when
     * {@link RunContext#stopRequested()}); the metadata is then saved. Throwing means failure: the
     * error is logged on the task, metadata stays as of the last checkpoint, the schedule backs off.
     */
    void run(RunContext context) throws Exception;

    /**
     * Cleans up after a run of this handler's task that died without finishing. Called inside the
     * transaction that takes over the expired lease, before the new run starts; throwing rolls the
     * takeover back (the next tick tries again). {@code metadata} is the task's as the dead run last
     * saved it, so the handler can tell which of its data the run worked on.
     */
    default void onAbandoned(Connection connection, String abandonedRunToken, Metadata metadata) throws SQLException {}
}
