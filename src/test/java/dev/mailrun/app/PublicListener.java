package dev.mailrun.app;

import java.net.ServerSocket;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * The public listener as {@code mailrun worker} builds it from configuration ({@code env}), on a free
 * port, for the tests that drive its pages in a browser; closed with its services and context.
 */
final class PublicListener implements AutoCloseable {

    final AppContext ctx;
    final Services services;
    final HttpEndpoint endpoint;
    /** {@code http://127.0.0.1:<port>} */
    final String base;

    private PublicListener(AppContext ctx, Services services, HttpEndpoint endpoint) {
        this.ctx = ctx;
        this.services = services;
        this.endpoint = endpoint;
        this.base = "http://127.0.0.1:" + endpoint.port().orElseThrow();
    }

    /** Starts it on a free port (set in {@code env}), the listener's stop waiting a second for open connections. */
    static PublicListener start(Map<String, String> env, Clock clock) throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            env.put("MAILRUN_HTTP_PORT", Integer.toString(s.getLocalPort()));
        }
        // The listener's stop waits half of this for the browser's open connections: a second, not fifteen.
        env.put("MAILRUN_TICK_SHUTDOWN_GRACE", "2s");
        AppContext ctx = AppContext.load(Optional.empty(), env, clock);
        Services services = new Services(ctx, ProductionLinks::of);
        return new PublicListener(ctx, services, HttpEndpoint.start(services));
    }

    @Override
    public void close() {
        endpoint.close();
        services.close();
        ctx.close();
    }
}
