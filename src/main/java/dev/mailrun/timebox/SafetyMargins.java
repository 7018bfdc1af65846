package dev.mailrun.timebox;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * The part of a task's interval a run leaves unused, derived from measurements instead of fixed:
 * <ol>
 *   <li>Each past run gives one sample: how late after its slot the run really started, plus how long
 *       after the previous run's deadline that run released its lease (final flush, checkpoint,
 *       release; negative when it released early counts as zero).</li>
 *   <li>The margin is the high percentile of those sums plus their spread (high percentile minus
 *       median), so a noisy worker keeps more room than a steady one with the same percentile.</li>
 *   <li>It is never below {@code floor} and never above {@code cap}; with fewer than
 *       {@code minSamples} samples nothing is known yet and the margin is {@code unmeasured}.</li>
 * </ol>
 * A worker whose clock or database is slow shows it in its own samples and gets a larger margin.
 *
 * @param floor      the smallest margin, whatever the samples say
 * @param cap        the largest margin (the configured upper bound)
 * @param percentile the high percentile taken, in (0, 1]
 * @param minSamples samples needed before the margin is derived from them
 * @param unmeasured the margin while fewer than {@code minSamples} samples are known, within [floor, cap]
 */
public record SafetyMargins(Duration floor, Duration cap, double percentile, int minSamples, Duration unmeasured) {

    /**
     * The margin of a task's first run when its next tick waits for a late release. Half a second:
     * a first run releases its task well within it after its deadline (its final flush and
     * checkpoint: tens of milliseconds for a sending run in a cold worker, docs/BENCHMARKS.md,
     * "Allowance"), and at 10-second ticks every 100 ms kept idle is 1% of the first window.
     */
    public static final Duration FIRST_GUESS = Duration.ofMillis(500);

    /**
     * Floor 100 ms, 95th percentile, from the first sample on: a single sample that underestimates
     * costs the next run a short wait at its slot, not its window. Nothing measured yet: the whole
     * bound. The floor is what every run boundary leaves the relay idle at least; at 10-second
     * ticks each 100 ms is 1% of the allowance.
     */
    public static SafetyMargins upTo(Duration cap) {
        return upTo(cap, cap);
    }

    /**
     * As {@link #upTo(Duration)}, with {@code unmeasured} (clamped to [floor, cap]) as the margin of a
     * run that has no samples yet. When the next tick waits a few seconds for a late release
     * ({@code tick.overlap-wait}), a wrong first guess costs that wait, not a window, so the first
     * run need not keep the whole bound idle.
     */
    public static SafetyMargins upTo(Duration cap, Duration unmeasured) {
        Duration floor = Duration.ofMillis(100);
        Duration f = floor.compareTo(cap) < 0 ? floor : cap;
        Duration u = unmeasured.compareTo(f) < 0 ? f : unmeasured.compareTo(cap) > 0 ? cap : unmeasured;
        return new SafetyMargins(f, cap, 0.95, 1, u);
    }

    public SafetyMargins {
        Objects.requireNonNull(floor, "floor");
        Objects.requireNonNull(cap, "cap");
        if (floor.isNegative() || cap.compareTo(floor) < 0) {
            throw new IllegalArgumentException("need 0 <= floor <= cap, was floor " + floor + ", cap " + cap);
        }
        if (!(percentile > 0 && percentile <= 1)) {
            throw new IllegalArgumentException("percentile must be within (0, 1], was " + percentile);
        }
        if (minSamples < 1) {
            throw new IllegalArgumentException("minSamples must be at least 1, was " + minSamples);
        }
        Objects.requireNonNull(unmeasured, "unmeasured");
        if (unmeasured.compareTo(floor) < 0 || unmeasured.compareTo(cap) > 0) {
            throw new IllegalArgumentException("need floor <= unmeasured <= cap, was unmeasured " + unmeasured
                    + ", floor " + floor + ", cap " + cap);
        }
    }

    /** The margin for the next run; {@code lateMillis[i]} and {@code releaseMillis[i]} belong together. */
    Duration margin(long[] lateMillis, long[] releaseMillis) {
        return of(stats(lateMillis, releaseMillis));
    }

    /** The margin a {@link Stats} gives. */
    public Duration of(Stats stats) {
        if (stats.samples() < minSamples) {
            return unmeasured;
        }
        Duration wanted = Duration.ofMillis(stats.highMillis() + stats.spreadMillis());
        return wanted.compareTo(floor) < 0 ? floor : wanted.compareTo(cap) > 0 ? cap : wanted;
    }

    /** Median, high percentile and spread of the sums, each sample clamped to [0, cap]. */
    public Stats stats(long[] lateMillis, long[] releaseMillis) {
        Objects.requireNonNull(lateMillis, "lateMillis");
        Objects.requireNonNull(releaseMillis, "releaseMillis");
        if (lateMillis.length != releaseMillis.length) {
            throw new IllegalArgumentException("lateness and release samples must pair up: "
                    + lateMillis.length + " and " + releaseMillis.length);
        }
        int n = lateMillis.length;
        if (n == 0) {
            return new Stats(0, 0, 0);
        }
        long capMs = cap.toMillis();
        long[] sums = new long[n];
        for (int i = 0; i < n; i++) {
            // A misfired run can start an interval late: one such sample must not say more than "at the cap".
            sums[i] = Math.min(capMs, Math.max(0, lateMillis[i]) + Math.max(0, releaseMillis[i]));
        }
        Arrays.sort(sums);
        long median = nearestRank(sums, 0.5);
        long high = nearestRank(sums, percentile);
        return new Stats(n, median, high);
    }

    private static long nearestRank(long[] sorted, double p) {
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /**
     * @param samples     how many sums were seen
     * @param medianMillis their median
     * @param highMillis  their high percentile
     */
    public record Stats(int samples, long medianMillis, long highMillis) {

        long spreadMillis() {
            return Math.max(0, highMillis - medianMillis);
        }
    }
}
