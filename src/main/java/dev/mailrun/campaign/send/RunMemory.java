package dev.mailrun.campaign.send;

/**
 * What one run of a campaign leaves in its task's metadata for the next: the timebox's estimator,
 * so the next run starts calibrated, and the run's start-up and shutdown costs.
 */
final class RunMemory {

    static final String TIMEBOX_KEY = "timebox";
    /** The run's start-up and shutdown costs ({@link dev.mailrun.timebox.RunCosts}), learned from run to run. */
    static final String COSTS_KEY = "runCosts";

    private RunMemory() {
    }
}
