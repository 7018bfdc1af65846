package dev.mailrun.timebox;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a run costs besides its batches, learned from run to run and smoothed like the per-item cost
 * ({@link EstimatorState}: mean and mean deviation, RFC 6298 gains):
 * <ul>
 *   <li>start-up: what the first batch takes beyond its predicted cost (connections opened, the first
 *       claim); the first batch is sized with it, and its per-item sample excludes it, so one slow
 *       start does not shrink every later batch;</li>
 *   <li>shutdown: from the end of the last batch's items to the end of the run's own final work
 *       (handing back, final flush); the run stops sending {@link #shutdownReserve()} before its
 *       deadline, so that work ends at the deadline instead of after it. Where items end after their
 *       batch (the in-flight time a {@link Timebox} is given), the caller measures from their end:
 *       every batch already leaves that time free, and counted here too it would be kept twice.</li>
 * </ul>
 * The reserve is the mean, not a pessimistic bound: a run whose shutdown takes longer releases its
 * task a little after its deadline, and that is what the scheduler's derived safety margin measures
 * and covers (its high percentile and spread). A pessimistic reserve here as well would leave the
 * spread idle twice in every window.
 *
 * @param samples           runs observed; 0 means nothing is known and both costs count as zero
 * @param startupMillis     smoothed start-up cost
 * @param shutdownMillis    smoothed shutdown cost
 * @param shutdownDevMillis smoothed mean deviation of the shutdown cost
 */
public record RunCosts(long samples, double startupMillis, double shutdownMillis, double shutdownDevMillis) {

    private static final double MEAN_GAIN = 1.0 / 8;
    private static final double DEVIATION_GAIN = 1.0 / 4;

    public RunCosts {
        if (samples < 0) {
            throw new IllegalArgumentException("samples must be 0 or more, was " + samples);
        }
        requireCost("startupMillis", startupMillis);
        requireCost("shutdownMillis", shutdownMillis);
        requireCost("shutdownDevMillis", shutdownDevMillis);
    }

    public static RunCosts unknown() {
        return new RunCosts(0, 0, 0, 0);
    }

    /** The time kept free before the deadline for the run's final work: its mean. */
    Duration shutdownReserve() {
        return millis(shutdownMillis);
    }

    /** The expected extra cost of a run's first batch. */
    Duration startup() {
        return millis(startupMillis);
    }

    /** These costs after one more run that measured {@code startup} and {@code shutdown}. */
    public RunCosts observe(Duration startup, Duration shutdown) {
        double s = Math.max(0, startup.toNanos() / 1e6);
        double d = Math.max(0, shutdown.toNanos() / 1e6);
        if (samples == 0) {
            return new RunCosts(1, s, d, d / 2);
        }
        double dev = (1 - DEVIATION_GAIN) * shutdownDevMillis + DEVIATION_GAIN * Math.abs(shutdownMillis - d);
        return new RunCosts(samples + 1, (1 - MEAN_GAIN) * startupMillis + MEAN_GAIN * s,
                (1 - MEAN_GAIN) * shutdownMillis + MEAN_GAIN * d, dev);
    }

    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("samples", samples);
        map.put("startupMillis", startupMillis);
        map.put("shutdownMillis", shutdownMillis);
        map.put("shutdownDevMillis", shutdownDevMillis);
        return map;
    }

    /** Reads what {@link #toMap()} wrote; anything missing or unusable gives {@link #unknown()}. */
    public static RunCosts fromMap(Map<String, ?> map) {
        if (map == null) {
            return unknown();
        }
        Double n = number(map.get("samples"));
        Double s = number(map.get("startupMillis"));
        Double d = number(map.get("shutdownMillis"));
        Double dev = number(map.get("shutdownDevMillis"));
        if (n == null || s == null || d == null || dev == null || n < 0 || s < 0 || d < 0 || dev < 0) {
            return unknown();
        }
        return new RunCosts(n.longValue(), s, d, dev);
    }

    private static Double number(Object value) {
        if (value instanceof Number number && Double.isFinite(number.doubleValue())) {
            return number.doubleValue();
        }
        return null;
    }

    private static Duration millis(double ms) {
        return Duration.ofNanos(Math.round(ms * 1e6));
    }

    private static void requireCost(String name, double millis) {
        if (!Double.isFinite(millis) || millis < 0) {
            throw new IllegalArgumentException(name + " must be a finite number of milliseconds, 0 or more, was " + millis);
        }
    }
}
