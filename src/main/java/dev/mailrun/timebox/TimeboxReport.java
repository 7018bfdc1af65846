package dev.mailrun.timebox;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What one run did.
 *
 * @param started     when the run started
 * @param ended       when the last batch returned (or the run decided to stop)
 * @param deadline    the deadline the run was given
 * @param batches     batches completed
 * @param items       items processed across those batches
 * @param busy        total time spent inside batches
 * @param utilisation busy time over the window ({@code deadline - started}); 0 for an empty window
 * @param overrun     how far the run ended past its deadline; {@link Duration#ZERO} when it did not
 * @param estimator   the estimator state to store for the next run
 * @param endReason   why the run ended
 * @param startup     what the first batch took beyond its predicted cost (a start-up sample); zero
 *                    when there was no calibrated prediction to compare with
 */
public record TimeboxReport(
        Instant started,
        Instant ended,
        Instant deadline,
        int batches,
        long items,
        Duration busy,
        double utilisation,
        Duration overrun,
        EstimatorState estimator,
        EndReason endReason,
        Duration startup) {

    public TimeboxReport {
        Objects.requireNonNull(started, "started");
        Objects.requireNonNull(ended, "ended");
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(busy, "busy");
        Objects.requireNonNull(overrun, "overrun");
        Objects.requireNonNull(estimator, "estimator");
        Objects.requireNonNull(endReason, "endReason");
        Objects.requireNonNull(startup, "startup");
    }

    /** Builds a report, deriving utilisation and overrun from the times. */
    static TimeboxReport of(Instant started, Instant ended, Instant deadline, int batches, long items,
                            Duration busy, EstimatorState estimator, EndReason endReason) {
        return of(started, ended, deadline, batches, items, busy, estimator, endReason, Duration.ZERO);
    }

    static TimeboxReport of(Instant started, Instant ended, Instant deadline, int batches, long items,
                            Duration busy, EstimatorState estimator, EndReason endReason, Duration startup) {
        Duration window = Duration.between(started, deadline);
        double utilisation = window.isNegative() || window.isZero()
                ? 0.0
                : (double) busy.toNanos() / window.toNanos();
        Duration late = Duration.between(deadline, ended);
        Duration overrun = late.isNegative() ? Duration.ZERO : late;
        return new TimeboxReport(started, ended, deadline, batches, items, busy, utilisation, overrun,
                estimator, endReason, startup);
    }
}
