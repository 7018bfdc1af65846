package dev.mailrun.mail.smtp;

import java.time.Duration;

/**
 * The timeouts one connection is opened with. The connect timeout is bounded by the run's
 * remaining time (half of it, once less remains than configured); read and write timeouts are the
 * configured ones for the connection's whole life, since it outlives the deadline it was opened
 * under: the deadline itself is kept by closing the socket ({@link SmtpConnection}).
 */
record ConnectionTimeouts(Duration connect, Duration read, Duration write) {

    static ConnectionTimeouts within(SmtpSettings settings, Duration remaining) {
        return new ConnectionTimeouts(bound(settings.connectTimeout(), remaining), settings.readTimeout(),
                settings.writeTimeout());
    }

    /** True when the connect timeout is shorter than configured because the deadline is near. */
    boolean cutShort(SmtpSettings settings) {
        return connect.compareTo(settings.connectTimeout()) < 0;
    }

    private static Duration bound(Duration configured, Duration remaining) {
        if (configured.compareTo(remaining) <= 0) {
            return configured;
        }
        return remaining.dividedBy(2).isZero() ? Duration.ofMillis(1) : remaining.dividedBy(2);
    }
}
