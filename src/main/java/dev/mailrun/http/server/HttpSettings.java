package dev.mailrun.http.server;

import java.time.Duration;
import java.util.Objects;

/**
 * Where the HTTP server listens and how long it may take to stop.
 *
 * @param bindAddress address to listen on ({@code http.bind})
 * @param port        port ({@code http.port}); 0 picks a free one
 * @param stopTimeout the whole budget of {@link HttpServer#stop()}: half of it lets requests in flight
 *                    finish, the rest closes connections and ends the threads
 * @param limits      what one client can take
 */
record HttpSettings(String bindAddress, int port, Duration stopTimeout, HttpLimits limits) {

    HttpSettings {
        if (bindAddress == null || bindAddress.isBlank()) {
            throw new IllegalArgumentException("bindAddress must not be blank");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0-65535, got " + port);
        }
        HttpLimits.requirePositive(stopTimeout, "stopTimeout");
        Objects.requireNonNull(limits, "limits");
    }

    /** The default limits. */
    static HttpSettings of(String bindAddress, int port, Duration stopTimeout) {
        return new HttpSettings(bindAddress, port, stopTimeout, HttpLimits.DEFAULTS);
    }
}
