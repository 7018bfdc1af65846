package dev.mailrun.campaign.store;

import java.time.Instant;

/** What became of one claimed recipient; written back in batches by {@link RecipientTable}. */
public sealed interface Outcome {

    long recipientId();

    record Sent(long recipientId, String messageId, Instant at) implements Outcome {}

    /** A transient failure: tried again at {@code nextAttemptAt}. */
    record Retry(long recipientId, Instant nextAttemptAt, int code, String error) implements Outcome {}

    /** A permanent failure, or a transient one that ran out of attempts. */
    record Failed(long recipientId, int code, String error) implements Outcome {}

    /** Claimed but never tried (deadline, stop, or an earlier fatal error): back to the queue, no attempt counted. */
    record Released(long recipientId) implements Outcome {}
}
