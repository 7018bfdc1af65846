package dev.mailrun.mail.feedback;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** What a webhook made of one request: its events, or why it was refused. */
public sealed interface Verdict {

    /**
     * The request is genuine.
     *
     * @param events its events, in order (none for an SNS subscription message)
     * @param nonce  a one-time value the provider signed (Mailgun's token) that must be remembered
     *               with the events, so a captured signature cannot carry other events; empty when the
     *               signature covers the whole body
     */
    record Accepted(List<FeedbackEvent> events, Optional<String> nonce) implements Verdict {
        public Accepted {
            events = List.copyOf(events);
            Objects.requireNonNull(nonce, "nonce");
        }

        public static Accepted of(List<FeedbackEvent> events) {
            return new Accepted(events, Optional.empty());
        }
    }

    /**
     * The request changes nothing.
     *
     * @param reason which kind of refusal (the HTTP status follows from it)
     * @param detail one line for the log; never a secret, never the body
     */
    record Refused(Reason reason, String detail) implements Verdict {
        public Refused {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(detail, "detail");
        }
    }

    /** Why a request was refused. */
    enum Reason {
        /** Not what the provider sends: not JSON, fields missing or of the wrong type. */
        MALFORMED,
        /** No signature or credentials, or ones that do not verify. */
        UNAUTHENTICATED,
        /** Signed too long ago (or too far ahead) to be a fresh delivery: a replay. */
        STALE,
        /** A signed SNS message from a topic mailrun is not configured to take. */
        UNKNOWN_TOPIC,
        /** The signature could not be checked now (the signing certificate could not be fetched). */
        UNAVAILABLE
    }
}
