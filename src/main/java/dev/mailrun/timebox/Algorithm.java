package dev.mailrun.timebox;

/** How a run decides whether another batch still fits before its deadline. */
public enum Algorithm {
    /** Keep going while now is before the deadline; the last batch may overrun by up to one batch. */
    LOOSE,
    /** Reference design: stop when now plus the mean duration of this run's batches passes the deadline. */
    TIGHT,
    /** Upper-bound prediction and batch sizing from the calibrated estimator; the default. */
    PREDICTIVE
}
