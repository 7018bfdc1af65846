package dev.mailrun.bench;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.timebox.Algorithm;
import dev.mailrun.timebox.BatchFailedException;
import dev.mailrun.timebox.EstimatorState;
import dev.mailrun.timebox.Timebox;
import dev.mailrun.timebox.TimeboxConfig;
import dev.mailrun.timebox.TimeboxReport;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Runs every algorithm on the same seeded synthetic workloads on a virtual clock and prints overrun
 * and utilisation. Not a test: run it by hand (see docs/TIMEBOX.md).
 *
 * <p>Arguments: {@code [runs] [seed]}, default 1000 runs and seed 20261121. Each run starts from
 * {@link EstimatorState#initial()}, so every run pays for its own calibration.
 */
public final class TimeboxBenchmark {

    private static final Instant T0 = Instant.parse("2026-11-21T00:00:00Z");
    private static final List<Duration> WINDOWS = List.of(Duration.ofSeconds(3), Duration.ofSeconds(300));
    private static final int NOMINAL_BATCH = 20;
    private static final TimeboxConfig CONFIG = new TimeboxConfig(
            10, 1, NOMINAL_BATCH, 0, 1.5, Duration.ofMillis(12), Duration.ofMillis(10));

    private TimeboxBenchmark() {
    }

    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 20261121L;

        List<Case> cases = new ArrayList<>();
        for (Duration window : WINDOWS) {
            for (Workload workload : Workload.values()) {
                for (boolean checks : new boolean[] {false, true}) {
                    for (Algorithm algorithm : Algorithm.values()) {
                        cases.add(new Case(window, workload, algorithm, checks));
                    }
                }
            }
        }
        long startedNanos = System.nanoTime();
        List<Result> results = cases.parallelStream().map(c -> c.run(runs, seed)).toList();
        long tookMillis = (System.nanoTime() - startedNanos) / 1_000_000;

        System.out.printf("%d runs per row, seed %d, %s%n%n", runs, seed, CONFIG);
        System.out.println("| window | workload | algorithm | budget checks | overrun rate | p99 overrun | max overrun "
                + "| mean utilisation | cut items/run |");
        System.out.println("|---|---|---|---|---:|---:|---:|---:|---:|");
        results.forEach(r -> System.out.println(r.row()));
        System.out.printf("%nTargets for PREDICTIVE with budget checks: zero overruns everywhere, "
                + "mean utilisation >= 97%% on steady workloads: %s%n", targetsMet(results) ? "MET" : "NOT MET");
        System.out.printf("Took %d ms%n", tookMillis);
    }

    private static boolean targetsMet(List<Result> results) {
        return results.stream()
                .filter(r -> r.of.algorithm == Algorithm.PREDICTIVE && r.of.checks)
                .allMatch(r -> r.overruns == 0 && (!r.of.workload.steady || r.meanUtilisation >= 0.97));
    }

    private record Case(Duration window, Workload workload, Algorithm algorithm, boolean checks) {

        Result run(int runs, long seed) {
            Timebox timebox = null;
            long[] overrunNanos = new long[runs];
            double utilisation = 0;
            long cut = 0;
            for (int run = 0; run < runs; run++) {
                // The same stream for every algorithm: the seed depends on window, workload and run only.
                SplittableRandom random = new SplittableRandom(
                        seed * 1_000_003L + window.toSeconds() * 7919L + workload.ordinal() * 104_729L + run);
                SettableClock clock = new SettableClock(T0);
                timebox = new Timebox(clock, CONFIG);
                Instant deadline = T0.plus(window);
                SyntheticOperator operator = new SyntheticOperator(
                        clock, workload, random, T0.plus(window.dividedBy(2)), checks);
                TimeboxReport report;
                try {
                    report = timebox.runUntil(deadline, operator, algorithm, EstimatorState.initial(), () -> false);
                } catch (BatchFailedException e) {
                    throw new IllegalStateException("the synthetic operator never fails", e);
                }
                overrunNanos[run] = report.overrun().toNanos();
                utilisation += report.utilisation();
                cut += operator.cutItems;
            }
            return new Result(this, runs, overrunNanos, utilisation / runs, (double) cut / runs);
        }
    }

    private static final class Result {
        final Case of;
        final int runs;
        final long overruns;
        final long p99Nanos;
        final long maxNanos;
        final double meanUtilisation;
        final double cutPerRun;

        Result(Case of, int runs, long[] overrunNanos, double meanUtilisation, double cutPerRun) {
            this.of = of;
            this.runs = runs;
            this.overruns = Arrays.stream(overrunNanos).filter(n -> n > 0).count();
            long[] sorted = overrunNanos.clone();
            Arrays.sort(sorted);
            this.p99Nanos = sorted[(int) Math.ceil(0.99 * runs) - 1];
            this.maxNanos = sorted[runs - 1];
            this.meanUtilisation = meanUtilisation;
            this.cutPerRun = cutPerRun;
        }

        String row() {
            return String.format("| %d s | %s | %s | %s | %.1f%% | %.1f ms | %.1f ms | %.2f%% | %.2f |",
                    of.window.toSeconds(), of.workload.name().toLowerCase().replace('_', ' '), of.algorithm,
                    of.checks ? "yes" : "no", 100.0 * overruns / runs, p99Nanos / 1e6, maxNanos / 1e6,
                    100 * meanUtilisation, cutPerRun);
        }
    }
}
