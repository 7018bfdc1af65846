package dev.mailrun.http.server;

import dev.mailrun.mail.Secret;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One listening socket of the {@link HttpServer} and the routes it serves. A route answers only on
 * its own listener: on every other one its path is 404, so the admin routes are never reachable
 * through the public port.
 *
 * @param name        shown in logs ({@code public}, {@code admin})
 * @param bindAddress address to listen on
 * @param port        0 picks a free one
 * @param bearerToken when present, every request on this listener must carry
 *                    {@code Authorization: Bearer <token>}; without it: 401
 * @param pages       the shell of the listener's own error answers (an unknown path, a request the
 *                    server refuses before a route sees it, a route that fails), in the reader's
 *                    language; empty: mailrun's bare page
 */
public record Listener(String name, String bindAddress, int port, List<Route> routes, Optional<Secret> bearerToken,
                       Optional<PublicPage> pages) {

    public Listener {
        Objects.requireNonNull(name, "name");
        if (bindAddress == null || bindAddress.isBlank()) {
            throw new IllegalArgumentException("bindAddress must not be blank");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0-65535, got " + port);
        }
        routes = List.copyOf(routes);
        Objects.requireNonNull(bearerToken, "bearerToken");
        Objects.requireNonNull(pages, "pages");
    }

    /** A listener whose error answers are mailrun's bare page. */
    public Listener(String name, String bindAddress, int port, List<Route> routes, Optional<Secret> bearerToken) {
        this(name, bindAddress, port, routes, bearerToken, Optional.empty());
    }

    /** This listener with its error answers in {@code shell}. */
    public Listener withPages(PublicPage shell) {
        return new Listener(name, bindAddress, port, routes, bearerToken, Optional.of(shell));
    }

    public static Listener open(String name, String bindAddress, int port, List<Route> routes) {
        return new Listener(name, bindAddress, port, routes, Optional.empty());
    }
}
