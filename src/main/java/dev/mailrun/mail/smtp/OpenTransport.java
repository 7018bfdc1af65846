package dev.mailrun.mail.smtp;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;

/**
 * An open SMTP session with what it was opened with: the transport (greeting, EHLO, TLS and AUTH
 * done), its socket factory (which can close the socket from another thread) and its session (whose
 * properties the transport reads for each message). What a connection hands to {@link WarmConnections}
 * when its pool closes, and what the next pool's connection takes over.
 */
record OpenTransport(StampedTransport transport, TrackedSockets sockets, Session session) {

    /**
     * True when the socket is still open and the relay has neither closed it nor said anything since
     * the last reply (a relay ending an idle session sends 421 and closes): a read of 1 ms finds
     * nothing. No command is sent, so nothing is charged to the relay's round trip.
     */
    boolean usable() {
        return sockets.quiet();
    }

    /** Ends the session (QUIT, not waiting for the reply), ignoring errors: it is being discarded. */
    void close() {
        try {
            transport.close();
        } catch (MessagingException | RuntimeException e) {
            // A session that fails to say goodbye is closed anyway.
        }
    }
}
