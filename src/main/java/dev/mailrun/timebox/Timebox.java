package dev.mailrun.timebox;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * Runs batches of work in a loop until a deadline. Between batches it checks, in this order: the
 * stop signal, then whether the algorithm lets another batch start and how large. Inside a batch
 * the operator checks its {@link BatchBudget}. Holds no state between runs, so one instance may
 * serve any number of runs, one after another or at once.
 */
public final class Timebox {

    private final Clock clock;
    private final TimeboxConfig config;
    private final CostModel model;

    /** A timebox whose rate limit is {@code config.maxItemsPerSecond()} for every run. */
    public Timebox(Clock clock, TimeboxConfig config) {
        this(clock, config, Objects.requireNonNull(config, "config must not be null")::maxItemsPerSecond);
    }

    /**
     * A timebox whose rate limit may change while it runs: {@code maxItemsPerSecond} is read at
     * every prediction (each batch size and each batch budget) in place of
     * {@code config.maxItemsPerSecond()}, and each value it gives is validated as the config's is.
     */
    public Timebox(Clock clock, TimeboxConfig config, DoubleSupplier maxItemsPerSecond) {
        this(clock, config, maxItemsPerSecond, () -> Duration.ZERO);
    }

    /**
     * As {@link #Timebox(Clock, TimeboxConfig, DoubleSupplier)}, for batches that end once their
     * items are started, knowing what an item still needs after that ({@code inFlight}, read at every
     * prediction): the items of a batch finish while the next one runs, and every batch is sized so
     * that its last item, started, still ends before the deadline — the run's last batch is one of
     * them. The caller waits for the last items after {@code runUntil}.
     */
    public Timebox(Clock clock, TimeboxConfig config, DoubleSupplier maxItemsPerSecond, Supplier<Duration> inFlight) {
        this.clock = Objects.requireNonNull(clock, "clock must not be null");
        this.config = Objects.requireNonNull(config, "config must not be null");
        this.model = new CostModel(config, Objects.requireNonNull(maxItemsPerSecond, "maxItemsPerSecond must not be null"),
                Objects.requireNonNull(inFlight, "inFlight must not be null"));
    }

    /** {@link #runUntil(Instant, BatchOperator, Algorithm, EstimatorState, BooleanSupplier)} with PREDICTIVE. */
    public TimeboxReport runUntil(Instant deadline, BatchOperator operator, EstimatorState initial,
                                  BooleanSupplier stopRequested) throws BatchFailedException {
        return runUntil(deadline, operator, Algorithm.PREDICTIVE, initial, stopRequested);
    }

    /**
     * Runs batches until the operator is done, the algorithm sees no room before the deadline, the
     * stop signal is raised, or a batch makes no progress (0 items, not done) although an item
     * would still fit: the run ends rather than spin.
     *
     * @throws BatchFailedException when the operator throws; it carries the report so far
     */
    public TimeboxReport runUntil(Instant deadline, BatchOperator operator, Algorithm algorithm,
                                  EstimatorState initial, BooleanSupplier stopRequested)
            throws BatchFailedException {
        return runUntil(deadline, operator, algorithm, initial, RunCosts.unknown(), stopRequested);
    }

    /**
     * As {@link #runUntil(Instant, BatchOperator, Algorithm, EstimatorState, BooleanSupplier)}, knowing
     * what the run costs besides its batches: batches end {@link RunCosts#shutdownReserve()}, less the
     * batch overhead each batch already keeps free, before {@code deadline} (the report's deadline is
     * that earlier instant), and the first batch is sized
     * and measured with {@link RunCosts#startup()} on top of its items.
     */
    public TimeboxReport runUntil(Instant deadline, BatchOperator operator, Algorithm algorithm,
                                  EstimatorState initial, RunCosts costs, BooleanSupplier stopRequested)
            throws BatchFailedException {
        Objects.requireNonNull(deadline, "deadline must not be null");
        Objects.requireNonNull(costs, "costs must not be null (use RunCosts.unknown())");
        // Each batch already keeps the overhead free for its own commit; the reserve adds what the
        // run's final work takes beyond that.
        Duration reserve = costs.shutdownReserve().minus(model.overhead());
        Instant sendBy = reserve.isNegative() ? deadline : deadline.minus(reserve);
        Objects.requireNonNull(operator, "operator must not be null");
        Objects.requireNonNull(algorithm, "algorithm must not be null");
        Objects.requireNonNull(initial, "initial estimator state must not be null (use EstimatorState.initial())");
        Objects.requireNonNull(stopRequested, "stopRequested must not be null");

        Instant started = clock.instant();
        Pacer pacer = Pacer.forRun(algorithm, config, model, sendBy);
        EstimatorState state = initial;
        int batches = 0;
        long items = 0;
        Duration busy = Duration.ZERO;
        Duration startup = Duration.ZERO;
        while (true) {
            if (stopRequested.getAsBoolean()) {
                return report(started, sendBy, batches, items, busy, state, EndReason.STOP_REQUESTED, startup);
            }
            Instant batchStart = clock.instant();
            // The first batch also pays the run's start-up: size it as if it began that much later.
            Duration extra = batches == 0 ? costs.startup() : Duration.ZERO;
            int size = pacer.nextBatchSize(batchStart.plus(extra), state);
            if (size == 0) {
                return report(started, sendBy, batches, items, busy, state, EndReason.DEADLINE, startup);
            }
            RunBudget budget = new RunBudget(clock, sendBy, size, model.overhead(),
                    model.perItemUpper(state), config.minTimeout());
            BatchResult result;
            try {
                result = checked(operator.runBatch(budget), size);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new BatchFailedException(
                        report(started, sendBy, batches, items, busy, state, EndReason.OPERATOR_FAILED, startup), e);
            }
            Duration took = Duration.between(batchStart, clock.instant());
            if (batches == 0 && state.calibrated() && result.items() > 0) {
                startup = startupSample(took, result.items(), state);
            }
            batches++;
            items += result.items();
            busy = busy.plus(took);
            // The estimator learns the per-item cost; the first batch's start-up is not part of it.
            Duration sampled = took.minus(batches == 1 ? min(extra, took) : Duration.ZERO);
            state = pacer.afterBatch(state, result.items(), sampled);
            if (result.exhausted()) {
                return report(started, sendBy, batches, items, busy, state, EndReason.OPERATOR_DONE, startup);
            }
            if (result.items() == 0) {
                // No progress only when another batch would still have been started: with less
                // time left than that, an operator that refuses an item a little before the
                // batch's own check would (a sending pool keeping a started message's time free)
                // was stopped by the deadline.
                Duration left = Duration.between(clock.instant(), sendBy);
                EndReason reason = model.itemsThatFit(state, left) > 0 ? EndReason.NO_PROGRESS : EndReason.DEADLINE;
                return report(started, sendBy, batches, items, busy, state, reason, startup);
            }
        }
    }

    private static BatchResult checked(BatchResult result, int maxItems) {
        if (result == null) {
            throw new IllegalStateException("batch operator returned null instead of a BatchResult");
        }
        if (result.items() > maxItems) {
            throw new IllegalStateException(
                    "batch operator processed " + result.items() + " items, more than the " + maxItems + " allowed");
        }
        return result;
    }

    private TimeboxReport report(Instant started, Instant deadline, int batches, long items, Duration busy,
                                 EstimatorState state, EndReason reason, Duration startup) {
        return TimeboxReport.of(started, clock.instant(), deadline, batches, items, busy, state, reason, startup);
    }

    /** What the first batch took beyond overhead + items at the mean cost (never below the rate limit). */
    private Duration startupSample(Duration took, int items, EstimatorState state) {
        double perItemNanos = Math.max(state.perItemMillis() * 1e6, model.rateFloorNanos());
        long expected = model.overhead().toNanos() + Math.round(items * perItemNanos);
        long extra = took.toNanos() - expected;
        return extra > 0 ? Duration.ofNanos(extra) : Duration.ZERO;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
    }
}
