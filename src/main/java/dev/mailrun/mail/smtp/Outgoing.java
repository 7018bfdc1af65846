package dev.mailrun.mail.smtp;

import dev.mailrun.mail.RejectedMessageException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.util.Optional;

/**
 * One message of a batch. {@link #build} runs on a sending thread just before the message is
 * sent, so a batch holds recipient data, not thousands of built messages.
 */
public interface Outgoing {

    /** The caller's identifier, echoed in the result. */
    long key();

    /**
     * Builds the message, usually with a template and the message composer. Any MimeMessage works,
     * including a DKIM-signed copy: the envelope sender travels with the connection, not the message.
     *
     * @param session a session that performs no DNS lookups; use it for the message
     * @throws RejectedMessageException when this recipient's data cannot make a valid message
     */
    MimeMessage build(Session session) throws RejectedMessageException;

    /** The envelope sender (Return-Path) for this message, e.g. {@code bounces+TOKEN@example.com}. */
    Optional<String> envelopeFrom();

    /**
     * A limit this message must pass besides the relay's, waited for before the relay's permit: the
     * pace of its recipient's domain. Empty: only the relay's rate applies.
     */
    default Optional<SendRateLimiter> pace() {
        return Optional.empty();
    }
}
