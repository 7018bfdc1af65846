package dev.mailrun.mail.smtp;

import java.time.Instant;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One batch handed to a pool: its items, the deadline and stop it is sent under, where its results
 * go, and how far the connections got with it. The counts are kept by the {@link ConnectionCrew},
 * under its lock.
 */
final class PoolBatch {

    private final BatchCursor<Outgoing> cursor;
    private final Instant deadline;
    private final BooleanSupplier stop;
    private final Consumer<SendResult> results;
    /** Items handed to a connection. */
    int taken;
    /** Items handed out that were built (so marked in flight) or have their result. */
    int passed;
    /** A connection of this batch retired: no more join it, they would only meet the same relay. */
    boolean retired;

    PoolBatch(BatchCursor<Outgoing> cursor, Instant deadline, BooleanSupplier stop, Consumer<SendResult> results) {
        this.cursor = cursor;
        this.deadline = deadline;
        this.stop = stop;
        this.results = results;
    }

    BatchCursor<Outgoing> cursor() {
        return cursor;
    }

    Instant deadline() {
        return deadline;
    }

    BooleanSupplier stop() {
        return stop;
    }

    Consumer<SendResult> results() {
        return results;
    }

    /** Every item handed out and past its build, or none left to hand out: the batch needs its caller no more. */
    boolean dispatched() {
        return cursor.left() == 0 && passed == taken;
    }
}
