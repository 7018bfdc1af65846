package dev.mailrun.http;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.handler.PathMappingsHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * mailrun's one HTTP server (Jetty, plain HTTP/1.1 behind the operator's TLS proxy), serving a list of
 * {@link Route}s; any other path gets 404. The {@link HttpLimits} hold on every connection:
 *
 * <pre>
 * connector (1 acceptor, 1 selector, at most maxConnections, idleTimeout, maxHeaderBytes)
 *  └ RequestHeadDeadline   closes connections whose request head is not in within headTimeout
 *     └ GracefulHandler    counts requests in flight; on stop, lets them finish and answers new ones 503
 *        └ PathMappingsHandler: each route's handler, "/" → 404
 * QueuedThreadPool (maxThreads)
 * </pre>
 *
 * Handlers never wait for a client on a thread (bodies are read as they arrive, {@link BodyReader}), so
 * slow clients hold sockets, not threads.
 */
public final class HttpServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HttpServer.class);
    private static final int MIN_IDLE_THREADS = 2;
    private static final Duration THREAD_IDLE = Duration.ofSeconds(60);

    private final Server server;
    private final ServerConnector connector;
    private final String description;
    private boolean stopped;   // guarded by this

    private HttpServer(Server server, ServerConnector connector, String description) {
        this.server = server;
        this.connector = connector;
        this.description = description;
    }

    /** Starts listening; with port 0 a free port is picked ({@link #port()}). */
    public static HttpServer start(HttpSettings settings, List<Route> routes) throws IOException {
        HttpLimits limits = settings.limits();
        QueuedThreadPool threads = new QueuedThreadPool(limits.maxThreads(), MIN_IDLE_THREADS, (int) THREAD_IDLE.toMillis());
        threads.setName("mailrun-http");
        threads.setDaemon(true);
        ScheduledExecutorScheduler scheduler = new ScheduledExecutorScheduler("mailrun-http-timer", true);
        Server server = new Server(threads, scheduler, null);

        HttpConfiguration http = new HttpConfiguration();
        http.setRequestHeaderSize(limits.maxHeaderBytes());
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(settings.bindAddress());
        connector.setPort(settings.port());
        connector.setIdleTimeout(limits.idleTimeout().toMillis());
        server.addConnector(connector);
        server.addBean(new NetworkConnectionLimit(limits.maxConnections(), connector));

        PathMappingsHandler mappings = new PathMappingsHandler();
        for (Route route : routes) {
            mappings.addMapping(PathSpec.from(route.pathSpec()), route.handler(limits));
        }
        mappings.addMapping(PathSpec.from("/"), new NotFoundHandler());
        RequestHeadDeadline headDeadline = new RequestHeadDeadline(scheduler, limits.headTimeout(), new GracefulHandler(mappings));
        connector.addEventListener(headDeadline);
        server.setHandler(headDeadline);
        // Jetty waits this long for requests in flight, then gives its threads at least as long again
        // (at least 1 s) to end: together within settings.stopTimeout() for a budget of 2 s or more.
        server.setStopTimeout(Math.max(1, settings.stopTimeout().toMillis() / 2));

        try {
            server.start();
        } catch (Exception e) {
            stopQuietly(server);
            if (e instanceof IOException io) {
                throw io;
            }
            throw new IOException("HTTP server could not start on " + settings.bindAddress() + ":" + settings.port()
                    + ": " + e.getMessage(), e);
        }
        String description = settings.bindAddress() + ":" + connector.getLocalPort() + " "
                + routes.stream().map(Route::pathSpec).collect(Collectors.joining(", "));
        log.info("HTTP endpoint listening on {}", description);
        return new HttpServer(server, connector, description);
    }

    public int port() {
        return connector.getLocalPort();
    }

    /**
     * Stops accepting, lets requests in flight finish for half the stop timeout (new requests on open
     * connections get 503), then closes every connection and ends the threads. Safe to call twice and
     * from two threads: a second call waits for the first.
     */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            server.stop();
            log.info("HTTP endpoint on {} stopped", description);
        } catch (Exception e) {
            // The graceful wait ran out: what was still in flight has been cut off.
            log.info("HTTP endpoint on {} stopped; requests still in flight were cut off ({})", description, e.toString());
        }
    }

    @Override
    public void close() {
        stop();
    }

    private static void stopQuietly(Server server) {
        try {
            server.stop();
        } catch (Exception ignored) {
            // it did not start; nothing more to release
        }
    }
}
