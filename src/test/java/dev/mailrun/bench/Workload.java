package dev.mailrun.bench;

import java.util.SplittableRandom;

/** Synthetic item costs, in nanoseconds. */
enum Workload {

    /** Every item takes 10 ms. */
    CONSTANT(true) {
        @Override
        long itemNanos(SplittableRandom random, double batchFactor, boolean secondHalf) {
            return 10 * MS;
        }
    },
    /** A nominal batch of 20 takes U(100, 300) ms: one speed factor drawn per batch, shared by its items. */
    UNIFORM(true) {
        @Override
        double batchFactor(SplittableRandom random) {
            return random.nextDouble(0.5, 1.5);
        }

        @Override
        long itemNanos(SplittableRandom random, double batchFactor, boolean secondHalf) {
            return Math.round(10 * MS * batchFactor);
        }
    },
    /** Log-normal items: median 5 ms, sigma 1.5 (mean 15 ms, p99 165 ms, p99.9 520 ms). */
    HEAVY_TAIL(false) {
        @Override
        long itemNanos(SplittableRandom random, double batchFactor, boolean secondHalf) {
            return Math.round(5 * MS * Math.exp(1.5 * gaussian(random)));
        }
    },
    /** U(8, 12) ms items whose speed halves (cost doubles) from the middle of the window on. */
    HALVING(false) {
        @Override
        long itemNanos(SplittableRandom random, double batchFactor, boolean secondHalf) {
            long cost = Math.round(random.nextDouble(8, 12) * MS);
            return secondHalf ? 2 * cost : cost;
        }
    };

    static final long MS = 1_000_000;

    /** Steady workloads carry the utilisation target. */
    final boolean steady;

    Workload(boolean steady) {
        this.steady = steady;
    }

    double batchFactor(SplittableRandom random) {
        return 1.0;
    }

    abstract long itemNanos(SplittableRandom random, double batchFactor, boolean secondHalf);

    private static double gaussian(SplittableRandom random) {
        // Box-Muller; SplittableRandom has no nextGaussian on Java 17.
        double u = 1.0 - random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
