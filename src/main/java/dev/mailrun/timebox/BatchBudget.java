package dev.mailrun.timebox;

import java.time.Duration;
import java.time.Instant;

/**
 * The limits of one batch, handed to the {@link BatchOperator}. The checks inside a batch are the
 * second line of defence: the size is already chosen to fit, but a slow item must still not carry
 * the run past its deadline.
 */
public interface BatchBudget {

    /** The most items this batch may process. */
    int maxItems();

    /** The deadline of the whole run. */
    Instant deadline();

    /** Time left before the deadline; {@link Duration#ZERO} once it has passed. */
    Duration remaining();

    /**
     * Whether one more item (at its pessimistic estimated cost) plus the batch's commit still fit
     * before the deadline. An operator checks this before each item and stops when it turns false.
     */
    boolean hasTimeForAnotherItem();

    /**
     * A timeout for a blocking call: {@code min(wanted, remaining())}, but never below the
     * configured minimum timeout, because a zero timeout means "wait forever" to most socket and
     * JDBC APIs. Never more than {@code wanted}. Suits the commit and any call after the items.
     */
    Duration timeoutFor(Duration wanted);

    /**
     * Like {@link #timeoutFor(Duration)} but keeps the commit reserve (the configured batch
     * overhead) free, so that an item cut off by this timeout still leaves time to commit the items
     * done before it. Use it for per-item work: SMTP connect, read and write.
     */
    Duration itemTimeoutFor(Duration wanted);
}
