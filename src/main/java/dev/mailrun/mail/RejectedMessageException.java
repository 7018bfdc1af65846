package dev.mailrun.mail;

/**
 * A message that must not be sent as built: a header value with a line break, an invalid address,
 * a template field the recipient lacks. The recipient fails permanently with {@link #getMessage()}
 * as the reason; nothing is written to the wire.
 */
public class RejectedMessageException extends Exception {

    public RejectedMessageException(String reason) {
        super(reason);
    }
}
