package dev.mailrun.mail.smtp;

import java.time.Duration;

/**
 * The timeouts one connection is opened with, bounded by the run's remaining time.
 *
 * <p>The mail library fixes timeouts when it connects, so near the deadline a connection is
 * reopened with shorter ones. With plenty of time left the configured timeouts apply. Once less
 * time remains than a configured timeout, the connection gets half the remaining time: it is then
 * replaced only after that half has passed, so the reconnects before a deadline number about
 * log2(timeout / minimum budget), not one per message.
 */
record ConnectionTimeouts(Duration connect, Duration read, Duration write) {

    static ConnectionTimeouts within(SmtpSettings settings, Duration remaining) {
        return new ConnectionTimeouts(bound(settings.connectTimeout(), remaining),
                bound(settings.readTimeout(), remaining), bound(settings.writeTimeout(), remaining));
    }

    /** False when a command could still be waiting for the relay after the remaining time is up. */
    boolean fitWithin(Duration remaining) {
        return connect.compareTo(remaining) <= 0 && read.compareTo(remaining) <= 0 && write.compareTo(remaining) <= 0;
    }

    /** True when a timeout is shorter than configured because the deadline is near. */
    boolean cutShort(SmtpSettings settings) {
        return connect.compareTo(settings.connectTimeout()) < 0 || read.compareTo(settings.readTimeout()) < 0
                || write.compareTo(settings.writeTimeout()) < 0;
    }

    private static Duration bound(Duration configured, Duration remaining) {
        if (configured.compareTo(remaining) <= 0) {
            return configured;
        }
        return remaining.dividedBy(2).isZero() ? Duration.ofMillis(1) : remaining.dividedBy(2);
    }
}
