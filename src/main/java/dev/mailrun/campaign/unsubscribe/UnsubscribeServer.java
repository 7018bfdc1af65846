package dev.mailrun.campaign.unsubscribe;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The unsubscribe endpoint, {@code /u/<token>}.
 *
 * <ul>
 *   <li>GET shows a confirmation page with a button and never unsubscribes: mail security scanners
 *       fetch every link in a message, and a GET that unsubscribed would unsubscribe everyone.</li>
 *   <li>POST unsubscribes, whatever its body: the RFC 8058 one-click POST
 *       ({@code List-Unsubscribe=One-Click}, urlencoded or multipart) and the page's own button alike.
 *       The signed token is the authority; no cookies, no redirects, and a repeat POST answers 200.</li>
 *   <li>A malformed, tampered or forged token gets 400 and changes nothing; any other path 404;
 *       any other method 405.</li>
 * </ul>
 */
public final class UnsubscribeServer implements AutoCloseable {

    public static final String PATH_PREFIX = "/u/";

    private static final Logger log = LoggerFactory.getLogger(UnsubscribeServer.class);
    private static final int MAX_BODY_BYTES = 64 * 1024;

    private final UnsubscribeTokens tokens;
    private final Unsubscriber unsubscriber;
    private HttpServer server;
    private ExecutorService executor;

    public UnsubscribeServer(UnsubscribeTokens tokens, Unsubscriber unsubscriber) {
        this.tokens = tokens;
        this.unsubscriber = unsubscriber;
    }

    /** Starts listening; port 0 picks a free port. Returns the bound port. */
    public synchronized int start(String bindAddress, int port) throws IOException {
        if (server != null) {
            throw new IllegalStateException("unsubscribe server already started on port " + port());
        }
        HttpServer s = HttpServer.create(new InetSocketAddress(bindAddress, port), 0);
        executor = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "unsubscribe-http");
            t.setDaemon(true);
            return t;
        });
        s.setExecutor(executor);
        s.createContext("/", this::handle);
        s.start();
        server = s;
        log.info("unsubscribe endpoint listening on {}:{}", bindAddress, port());
        return port();
    }

    public synchronized int port() {
        if (server == null) {
            throw new IllegalStateException("unsubscribe server is not running");
        }
        return server.getAddress().getPort();
    }

    public synchronized void stop() {
        if (server != null) {
            server.stop(1);
            executor.shutdownNow();
            server = null;
            executor = null;
        }
    }

    @Override
    public void close() {
        stop();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            if (!path.startsWith(PATH_PREFIX) || path.length() == PATH_PREFIX.length()
                    || path.indexOf('/', PATH_PREFIX.length()) >= 0) {
                respond(exchange, 404, Html.error("Not found", "There is nothing here."));
                return;
            }
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("POST")) {
                exchange.getResponseHeaders().set("Allow", "GET, POST");
                respond(exchange, 405, Html.error("Method not allowed", "Use the link or the button in the message."));
                return;
            }
            String token = path.substring(PATH_PREFIX.length());
            Optional<UnsubscribeTarget> target = tokens.verify(token);
            if (target.isEmpty()) {
                respond(exchange, 400, Html.error("Invalid link",
                        "This unsubscribe link is not valid. Please use the link from the message exactly as it is."));
                return;
            }
            if (method.equals("GET")) {
                respond(exchange, 200, Html.confirm(target.get().address()));
            } else {
                discardBody(exchange.getRequestBody());
                unsubscribe(exchange, target.get());
            }
        } catch (RuntimeException e) {
            log.error("unsubscribe request failed", e);
        }
    }

    private void unsubscribe(HttpExchange exchange, UnsubscribeTarget target) throws IOException {
        try {
            Unsubscriber.Result result = unsubscriber.unsubscribe(target);
            if (result == Unsubscriber.Result.INVALID_ADDRESS) {
                respond(exchange, 400, Html.error("Invalid link", "This unsubscribe link does not name a valid address."));
                return;
            }
            log.info("unsubscribe campaign={} recipient={}: {}", target.campaignId(), target.recipientId(), result);
            respond(exchange, 200, Html.done(target.address()));
        } catch (SQLException e) {
            log.error("unsubscribe campaign={} recipient={} could not be stored", target.campaignId(), target.recipientId(), e);
            respond(exchange, 500, Html.error("Please try again", "Your request could not be recorded just now."));
        }
    }

    /** The body carries nothing we need; it is read (bounded) so the connection can be reused. */
    private static void discardBody(InputStream body) throws IOException {
        byte[] buffer = new byte[8192];
        int total = 0;
        int n;
        while (total < MAX_BODY_BYTES && (n = body.read(buffer)) > 0) {
            total += n;
        }
    }

    private static void respond(HttpExchange exchange, int status, String html) throws IOException {
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        var headers = exchange.getResponseHeaders();
        headers.set("Content-Type", "text/html; charset=utf-8");
        headers.set("Cache-Control", "no-store");
        headers.set("X-Content-Type-Options", "nosniff");
        // The token is in the URL: never hand it to another site.
        headers.set("Referrer-Policy", "no-referrer");
        headers.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
