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
               boolean connectionLost, boolean retryOnNewConnection) {

    enum Kind { TRANSIENT, PERMANENT, FATAL }

    SendResult toResult(long key) {
        return switch (kind) {
            case TRANSIENT -> new SendResult.Transient(key, code, text, retryAfter);
            case PERMANENT -> new SendResult.Permanent(key, code, text, hardBounce);
            case FATAL -> new SendResult.Fatal(key, text);
        };
    }
}
