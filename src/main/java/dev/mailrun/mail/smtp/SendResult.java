package dev.mailrun.mail.smtp;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** What happened to one message of a batch; every item gets exactly one. */
public sealed interface SendResult {

    /** The caller's key of the item this result belongs to. */
    long key();

    /** The relay accepted the message. */
    record Sent(long key, String messageId, Instant at) implements SendResult {
        public Sent {
            Objects.requireNonNull(messageId, "messageId");
            Objects.requireNonNull(at, "at");
        }
    }

    /**
     * Try again later: a 4xx reply, a dropped or refused connection, a timeout.
     *
     * @param code       the SMTP reply code, 0 when there was no reply (connection failures)
     * @param retryAfter the relay's own "try again in N minutes" hint, when it gave one
     */
    record Transient(long key, int code, String text, Optional<Duration> retryAfter) implements SendResult {
        public Transient {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(retryAfter, "retryAfter");
        }
    }

    /**
     * The relay said "too fast" (421/450/451/454 with 4.7.x or a throttling text, {@link TooFast}):
     * nothing is wrong with the message or the relay, only the pace. The recipient goes back to the
     * queue without an attempt charged, and the sender slows down for {@code scope}.
     */
    record Throttled(long key, int code, String text, TooFast.Scope scope) implements SendResult {
        public Throttled {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(scope, "scope");
        }
    }

    /**
     * Never retry: a 5xx reply, or a message that was rejected before sending (code 0).
     *
     * @param hardBounce the address does not exist (5.1.x, "no such user"): suppress it
     */
    record Permanent(long key, int code, String text, boolean hardBounce) implements SendResult {
        public Permanent {
            Objects.requireNonNull(text, "text");
        }
    }

    /** Authentication or TLS configuration failed: the batch stopped; fix the settings. */
    record Fatal(long key, String reason) implements SendResult {
        public Fatal {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * Not tried: the deadline came, a stop was requested, or an earlier message was fatal.
     * Put it back to pending without counting an attempt.
     */
    /**
     * The relay could not be reached (connection refused, timed out, or turned away at the greeting)
     * before this message's first try: nothing was sent, so no attempt should be charged. The
     * connection takes no more items in this batch.
     */
    record Unreachable(long key, String text) implements SendResult {}

    record NotAttempted(long key) implements SendResult {
    }
}
