package dev.mailrun.mail.smtp;

import java.time.Duration;

/**
 * What the SMTP pool tells as it works, for whoever counts it (the campaign layer feeds its
 * metrics from these). Called from the pool's sending threads: an implementation must be quick,
 * thread-safe and must never throw. {@link #NONE} ignores everything.
 */
public interface PoolEvents {

    PoolEvents NONE = new PoolEvents() {};

    /** A message waited this long for its rate permit and send window before it went out. */
    default void permitWaited(Duration waited) {}

    /** A connection to the relay was opened (greeting, EHLO, TLS and AUTH done). */
    default void connectionOpened() {}

    /** A connection to the relay was closed or discarded. */
    default void connectionClosed() {}

    /** A message took this long on its connection, from MAIL FROM to the reply after its body. */
    default void messageTimed(Duration took) {}

    /** At the start of a batch: how the pool sized itself, and what that reaches. */
    default void connectionsSized(ConnectionReport report) {}

    /**
     * The relay turned a connection away as one too many while {@code open} connections of this
     * pool were serving ({@code reply}: what it said).
     */
    default void connectionLimitReached(int open, String reply) {}
}
