package dev.mailrun.http.server;

import java.time.Duration;

/**
 * What one client can take from the HTTP server. Every wait is bounded, so slow or silent clients
 * (slow-loris: a request line, headers or a body sent a byte at a time) cost a socket, never a thread,
 * and are cut off; every size is bounded, so no request makes the server buffer much.
 *
 * <p>These are network deadlines of the server's own sockets, measured on the wall clock by Jetty, like
 * the SMTP timeouts; they decide nothing about campaigns or runs.
 *
 * @param maxThreads     threads in all (one accepts, one selects; the rest run handlers). Work waiting
 *                       for a thread queues without a bound, as Jetty advises (a rejected task can leave
 *                       a connection hanging); maxConnections bounds it instead
 * @param maxConnections open connections; at the limit the server stops accepting until one closes
 * @param idleTimeout    a connection on which nothing moves for this long is closed
 * @param headTimeout    from a connection's opening, or from its last answer, until the next request
 *                       line and headers are in; a connection that takes longer is closed
 * @param bodyTimeout    from the end of the headers until the whole body is in; longer: 408
 * @param maxHeaderBytes request line plus headers; larger: 431 (a URI alone that long: 414)
 * @param maxBodyBytes   request body; larger: 413
 * @param maxWebhookBodyBytes request body of a provider's webhook; larger: 413
 */
public record HttpLimits(int maxThreads, int maxConnections, Duration idleTimeout,
                         Duration headTimeout, Duration bodyTimeout, int maxHeaderBytes, int maxBodyBytes,
                         int maxWebhookBodyBytes) {

    /**
     * A one-click POST body is 26 bytes and its multipart form about 150; a token URL is under 1,100
     * characters. Handlers are short database writes, so a few threads serve many clients. Webhook
     * bodies are larger: an SNS message is at most 256 KiB, a SendGrid batch a few hundred KiB.
     */
    public static final HttpLimits DEFAULTS = new HttpLimits(16, 1_000, Duration.ofSeconds(30),
            Duration.ofSeconds(10), Duration.ofSeconds(10), 8 * 1024, 64 * 1024, 1024 * 1024);

    /** With the default webhook body limit. */
    HttpLimits(int maxThreads, int maxConnections, Duration idleTimeout, Duration headTimeout,
                      Duration bodyTimeout, int maxHeaderBytes, int maxBodyBytes) {
        this(maxThreads, maxConnections, idleTimeout, headTimeout, bodyTimeout, maxHeaderBytes, maxBodyBytes, 1024 * 1024);
    }

    /** The acceptor and the selector each hold a thread for good; two more at least run handlers. */
    static final int MIN_THREADS = 4;

    public HttpLimits {
        if (maxThreads < MIN_THREADS) {
            throw new IllegalArgumentException("maxThreads must be at least " + MIN_THREADS + ", got " + maxThreads);
        }
        requireAtLeast(1, maxConnections, "maxConnections");
        requirePositive(idleTimeout, "idleTimeout");
        requirePositive(headTimeout, "headTimeout");
        requirePositive(bodyTimeout, "bodyTimeout");
        requireAtLeast(1024, maxHeaderBytes, "maxHeaderBytes");
        requireAtLeast(0, maxBodyBytes, "maxBodyBytes");
        requireAtLeast(0, maxWebhookBodyBytes, "maxWebhookBodyBytes");
    }

    private static void requireAtLeast(int min, int value, String name) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
        }
    }

    static void requirePositive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + d);
        }
    }
}
