package dev.mailrun.http.server;

import java.util.Optional;
import java.util.function.Function;
import org.eclipse.jetty.server.Handler;

/**
 * One route of the {@link HttpServer}: a Jetty path spec ({@code /u/*}, {@code /health}) and the
 * handler behind it. The packages that serve routes make theirs ({@code http.endpoint.PublicRoutes},
 * {@code http.status.StatusRoutes}); the wiring picks which to serve.
 */
public final class Route {

    private final String pathSpec;
    private final Function<HttpLimits, Handler> handler;
    private final boolean ownAuthentication;
    private final Optional<SessionCheck> sessions;

    private Route(String pathSpec, Function<HttpLimits, Handler> handler) {
        this(pathSpec, handler, false, Optional.empty());
    }

    private Route(String pathSpec, Function<HttpLimits, Handler> handler, boolean ownAuthentication,
                  Optional<SessionCheck> sessions) {
        this.pathSpec = pathSpec;
        this.handler = handler;
        this.ownAuthentication = ownAuthentication;
        this.sessions = sessions;
    }

    /**
     * This route, opened also by a request that {@code sessions} admits (the console's login) where the
     * listener asks for a bearer token: so that a browser can show it.
     */
    public Route orSession(SessionCheck sessions) {
        return new Route(pathSpec, handler, ownAuthentication, Optional.of(sessions));
    }

    /**
     * A route that authenticates every request itself (the API: its own tokens and scopes, with the
     * listener's bearer token accepted as one of them), so the listener's bearer token check does not
     * stand in front of it.
     */
    public static Route authenticatingItself(String pathSpec, Function<HttpLimits, Handler> handler) {
        return new Route(pathSpec, handler, true, Optional.empty());
    }

    /** A route at {@code pathSpec} whose handler is made, once, with the server's limits. */
    public static Route of(String pathSpec, Function<HttpLimits, Handler> handler) {
        return new Route(pathSpec, handler);
    }

    String pathSpec() {
        return pathSpec;
    }

    boolean ownAuthentication() {
        return ownAuthentication;
    }

    Optional<SessionCheck> sessions() {
        return sessions;
    }

    Handler handler(HttpLimits limits) {
        return handler.apply(limits);
    }

    @Override
    public String toString() {
        return pathSpec;
    }
}
