package dev.mailrun.timebox;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/** The budget of one batch: its size, and the deadline checks that read the clock on each call. */
final class RunBudget implements BatchBudget {

    private final Clock clock;
    private final Instant deadline;
    private final int maxItems;
    private final Duration commitReserve;
    private final Duration perItemUpper;
    private final Duration minTimeout;

    RunBudget(Clock clock, Instant deadline, int maxItems, Duration commitReserve, Duration perItemUpper,
              Duration minTimeout) {
        this.clock = clock;
        this.deadline = deadline;
        this.maxItems = maxItems;
        this.commitReserve = commitReserve;
        this.perItemUpper = perItemUpper;
        this.minTimeout = minTimeout;
    }

    @Override
    public int maxItems() {
        return maxItems;
    }

    @Override
    public Instant deadline() {
        return deadline;
    }

    @Override
    public Duration remaining() {
        Duration left = Duration.between(clock.instant(), deadline);
        return left.isNegative() ? Duration.ZERO : left;
    }

    @Override
    public boolean hasTimeForAnotherItem() {
        // The item must fit at its pessimistic cost and still get at least the minimum timeout
        // without eating into the reserve (the rule the pacer sizes batches by): then
        // itemTimeoutFor can never reach past it.
        return forItems().compareTo(perItemUpper.plus(minTimeout)) >= 0;
    }

    @Override
    public Duration timeoutFor(Duration wanted) {
        return bounded(wanted, remaining());
    }

    @Override
    public Duration itemTimeoutFor(Duration wanted) {
        return bounded(wanted, forItems());
    }

    private Duration forItems() {
        return remaining().minus(commitReserve);
    }

    private Duration bounded(Duration wanted, Duration left) {
        Objects.requireNonNull(wanted, "wanted timeout must not be null");
        if (wanted.isNegative() || wanted.isZero()) {
            // Zero means "wait forever" to most socket and JDBC APIs: never hand it out.
            throw new IllegalArgumentException("wanted timeout must be positive, was " + wanted);
        }
        Duration floored = left.compareTo(minTimeout) < 0 ? minTimeout : left;
        return wanted.compareTo(floored) < 0 ? wanted : floored;
    }
}
