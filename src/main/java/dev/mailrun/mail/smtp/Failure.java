package dev.mailrun.mail.smtp;

import java.time.Duration;
import java.util.Optional;

/**
 * A classified sending failure, before it is tied to a message key.
 *
 * @param connectionLost the connection is unusable afterwards and must be replaced
 * @param retryOnNewConnection the message may be tried once more on a fresh connection
 */
record Failure(Kind kind, int code, String text, Optional<Duration> retryAfter, boolean hardBounce,
               boolean connectionLost, boolean retryOnNewConnection, Optional<TooFast.Scope> tooFast) {

    enum Kind { TRANSIENT, PERMANENT, FATAL, THROTTLED }

    Failure(Kind kind, int code, String text, Optional<Duration> retryAfter, boolean hardBounce,
            boolean connectionLost, boolean retryOnNewConnection) {
        this(kind, code, text, retryAfter, hardBounce, connectionLost, retryOnNewConnection, Optional.empty());
    }

    SendResult toResult(long key) {
        return switch (kind) {
            case TRANSIENT -> new SendResult.Transient(key, code, text, retryAfter);
            case PERMANENT -> new SendResult.Permanent(key, code, text, hardBounce);
            case FATAL -> new SendResult.Fatal(key, text);
            case THROTTLED -> new SendResult.Throttled(key, code, text, tooFast.orElseThrow());
        };
    }
}
