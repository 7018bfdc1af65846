package dev.mailrun.timebox;

/** Why a run ended. */
public enum EndReason {
    /** The operator reported that nothing is left to do. */
    OPERATOR_DONE,
    /** Not even the smallest batch (or one more item) fits before the deadline. */
    DEADLINE,
    /** The stop signal (shutdown) was raised between batches. */
    STOP_REQUESTED,
    /**
     * The operator processed nothing although there was time and it did not report done.
     * The run ends instead of spinning on an operator that cannot progress; the next run tries again.
     */
    NO_PROGRESS,
    /** The operator threw; only seen in {@link BatchFailedException#partialReport()}. */
    OPERATOR_FAILED
}
