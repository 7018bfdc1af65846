package dev.mailrun.campaign.store;

import java.time.Instant;

/**
 * What became of one claimed recipient; written back in batches by {@link dev.mailrun.campaign.store.recipient.RecipientResults}. {@code relay}
 * names the relay that took the attempt (null: none, or not known); it is recorded on the row.
 */
public sealed interface Outcome {

    long recipientId();

    record Sent(long recipientId, String messageId, Instant at, String relay) implements Outcome {
        public Sent(long recipientId, String messageId, Instant at) {
            this(recipientId, messageId, at, null);
        }
    }

    /** A transient failure: tried again at {@code nextAttemptAt}. */
    record Retry(long recipientId, Instant nextAttemptAt, int code, String error, String relay) implements Outcome {
        Retry(long recipientId, Instant nextAttemptAt, int code, String error) {
            this(recipientId, nextAttemptAt, code, error, null);
        }
    }

    /** A permanent failure, or a transient one that ran out of attempts. */
    record Failed(long recipientId, int code, String error, String relay) implements Outcome {
        Failed(long recipientId, int code, String error) {
            this(recipientId, code, error, null);
        }
    }

    /** Claimed but never tried (deadline, stop, or an earlier fatal error): back to the queue, no attempt counted. */
    record Released(long recipientId) implements Outcome {}
}
