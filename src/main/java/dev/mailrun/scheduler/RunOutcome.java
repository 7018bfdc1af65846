package dev.mailrun.scheduler;

import java.util.Locale;

/** The outcome column of {@code task_run}. */
public enum RunOutcome {
    /** The run holds the lease now (or died and nobody has noticed yet). */
    RUNNING,
    SUCCEEDED,
    /**
     * The handler returned having done nothing, as nothing was for it to do now (a paused campaign,
     * one outside its send window); it said so with {@link RunContext#idle()} and its summary says why.
     */
    IDLE,
    /**
     * The handler returned without doing its work because something it needs is unavailable (every
     * relay of a campaign's route down); it said so with {@link RunContext#blocked()}. Not a success,
     * nor a failure: the schedule goes on as after a success, without backoff.
     */
    BLOCKED,
    FAILED,
    /** The handler was asked to stop (shutdown) and returned. */
    STOPPED,
    /** The run's lease expired without a heartbeat and another tick took the task over. */
    ABANDONED,
    /** Slots that were skipped because the task was too late for them; one row per decision. */
    MISFIRED,
    /** A tick found the task already running and left it alone. */
    SKIPPED_OVERLAP,
    /** A tick found no handler for the task in this worker and left it due (one row per tick). */
    SKIPPED_NO_HANDLER;

    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether this is the outcome of a handler that returned normally: succeeded, idle or blocked. */
    boolean returned() {
        return this == SUCCEEDED || this == IDLE || this == BLOCKED;
    }

    static RunOutcome fromDb(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
