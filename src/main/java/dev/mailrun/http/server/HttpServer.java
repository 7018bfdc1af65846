package dev.mailrun.http.server;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
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
 * mailrun's one HTTP server (Jetty, plain HTTP/1.1 behind the operator's TLS proxy): one or more
 * {@link Listener}s, each a connector with its own {@link Route}s; a path no route of the listener
 * claims gets 404, so the routes of one listener are never reachable through another. The
 * {@link HttpLimits} hold on every connection:
 *
 * <pre>
 * connectors (each: 1 acceptor, 1 selector; together at most maxConnections, idleTimeout, maxHeaderBytes)
 *  └ RequestHeadDeadline   closes connections whose request head is not in within headTimeout
 *     └ GracefulHandler    counts requests in flight; on stop, lets them finish and answers new ones 503
 *        └ per listener: OnListener (its connector only) → PathMappingsHandler: each route's handler
 *                         [behind BearerTokenCheck, unless the route authenticates itself], "/" → [BearerTokenCheck →] 404
 * ErrorPages (Jetty's error handler): refusals, failures, 503 while stopping; in the listener's page shell when it has one
 * QueuedThreadPool (maxThreads, shared)
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
    private final Map<String, ServerConnector> connectors;
    private final String description;
    private boolean stopped;   // guarded by this

    private HttpServer(Server server, Map<String, ServerConnector> connectors, String description) {
        this.server = server;
        this.connectors = connectors;
        this.description = description;
    }

    /** One listener, named {@code public}, with the default limits; with port 0 a free port is picked ({@link #port()}). */
    static HttpServer start(HttpSettings settings, List<Route> routes) throws IOException {
        return start(List.of(Listener.open("public", settings.bindAddress(), settings.port(), routes)),
                settings.stopTimeout(), settings.limits());
    }

    /**
     * Starts listening on every listener, or on none (an exception) if one cannot.
     *
     * @param stopTimeout the whole budget of {@link #stop()}: half of it lets requests in flight finish,
     *                    the rest closes connections and ends the threads
     */
    public static HttpServer start(List<Listener> listeners, Duration stopTimeout, HttpLimits limits) throws IOException {
        if (listeners.isEmpty()) {
            throw new IllegalArgumentException("at least one listener");
        }
        HttpLimits.requirePositive(stopTimeout, "stopTimeout");
        QueuedThreadPool threads = new QueuedThreadPool(limits.maxThreads(), MIN_IDLE_THREADS, (int) THREAD_IDLE.toMillis());
        threads.setName("mailrun-http");
        threads.setDaemon(true);
        ScheduledExecutorScheduler scheduler = new ScheduledExecutorScheduler("mailrun-http-timer", true);
        Server server = new Server(threads, scheduler, null);

        HttpConfiguration http = new HttpConfiguration();
        http.setRequestHeaderSize(limits.maxHeaderBytes());
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        Map<String, ServerConnector> connectors = new LinkedHashMap<>();
        List<Handler> perListener = new ArrayList<>();
        Map<Connector, PublicPage> shells = new HashMap<>();
        for (Listener listener : listeners) {
            if (connectors.containsKey(listener.name())) {
                throw new IllegalArgumentException("two listeners named " + listener.name());
            }
            ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
            connector.setName(listener.name());
            connector.setHost(listener.bindAddress());
            connector.setPort(listener.port());
            connector.setIdleTimeout(limits.idleTimeout().toMillis());
            server.addConnector(connector);
            connectors.put(listener.name(), connector);

            // The listener's bearer token stands in front of every route but those that authenticate
            // each request themselves, and in front of the 404 of paths no route claims.
            PathMappingsHandler mappings = new PathMappingsHandler();
            for (Route route : listener.routes()) {
                Handler h = route.handler(limits);
                mappings.addMapping(PathSpec.from(route.pathSpec()), route.ownAuthentication() ? h : guarded(listener, h, route.sessions()));
            }
            mappings.addMapping(PathSpec.from("/"), guarded(listener, new NotFoundHandler(listener.pages()), Optional.empty()));
            perListener.add(new OnListener(connector, mappings));
            listener.pages().ifPresent(shell -> shells.put(connector, shell));
        }
        server.addBean(new NetworkConnectionLimit(limits.maxConnections(), connectors.values().toArray(new ServerConnector[0])));
        perListener.add(new NotFoundHandler(Optional.empty()));
        RequestHeadDeadline headDeadline = new RequestHeadDeadline(scheduler, limits.headTimeout(),
                new GracefulHandler(new Handler.Sequence(perListener)));
        connectors.values().forEach(c -> c.addEventListener(headDeadline));
        server.setHandler(headDeadline);
        server.setErrorHandler(new ErrorPages(shells));
        // Jetty waits this long for requests in flight, then gives its threads at least as long again
        // (at least 1 s) to end: together within stopTimeout for a budget of 2 s or more.
        server.setStopTimeout(Math.max(1, stopTimeout.toMillis() / 2));

        try {
            server.start();
        } catch (Exception e) {
            stopQuietly(server);
            String where = listeners.stream().map(l -> l.bindAddress() + ":" + l.port()).collect(Collectors.joining(", "));
            if (inUse(e)) {
                throw new IOException(e.getMessage() + ": the port is in use; another mailrun worker or serve "
                        + "(or another program) may hold it", e);
            }
            if (e instanceof IOException io) {
                throw io;
            }
            throw new IOException("HTTP server could not start on " + where + ": " + e.getMessage(), e);
        }
        String description = listeners.stream()
                .map(l -> (listeners.size() > 1 ? l.name() + " " : "") + l.bindAddress() + ":"
                        + connectors.get(l.name()).getLocalPort() + " "
                        + l.routes().stream().map(Route::pathSpec).collect(Collectors.joining(", "))
                        + (l.bearerToken().isPresent() ? " (bearer token required)" : ""))
                .collect(Collectors.joining("; "));
        log.info("HTTP endpoint listening on {}", description);
        return new HttpServer(server, connectors, description);
    }

    /** Whether a start failed because a listener's port is taken (not, say, because its address is not ours). */
    private static boolean inUse(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.BindException && t.getMessage() != null && t.getMessage().contains("in use")) {
                return true;
            }
        }
        return false;
    }

    private static Handler guarded(Listener listener, Handler handler, Optional<SessionCheck> sessions) {
        return listener.bearerToken().<Handler>map(t -> new BearerTokenCheck(t, sessions, handler)).orElse(handler);
    }

    /** The port of the first listener. */
    public int port() {
        return connectors.values().iterator().next().getLocalPort();
    }

    /** The port of the named listener. */
    public int port(String listener) {
        ServerConnector c = connectors.get(listener);
        if (c == null) {
            throw new IllegalArgumentException("no listener named " + listener);
        }
        return c.getLocalPort();
    }
    /**
     * Stops accepting, lets requests in flight finish for half the stop timeout (new requests on open
     * connections get 503), then closes every connection and ends the threads. Safe to call twice and
     * from two threads: a second call waits for the first.
     */
    synchronized void stop() {
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
