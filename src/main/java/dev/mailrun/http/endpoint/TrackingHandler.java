package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.tracking.Tracker;
import dev.mailrun.campaign.unsubscribe.TrackingTokens;
import dev.mailrun.http.server.PublicPage;
import dev.mailrun.http.server.TrustedProxies;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tracking endpoints of the public listener: {@code /c/<token>} (a click: 302 to the template's
 * URL for the token's link, and nowhere else) and {@code /o/<token>.gif} (an open: a 1×1 GIF).
 * GET and HEAD only. A token that is malformed, forged or altered, or names a campaign, link or
 * recipient that is not tracked, gets 404 and records nothing. The request thread reads at most
 * one row and writes nothing ({@link Tracker}). Its error pages (404, 405, 503 when the database cannot
 * answer) are in the public page shell; the pixel and the redirect carry no page.
 */
final class TrackingHandler extends Handler.Abstract {

    private static final Logger log = LoggerFactory.getLogger(TrackingHandler.class);
    /** What is kept of a User-Agent while the request is classified: enough for every rule. */
    static final int MAX_USER_AGENT = 512;
    /** A transparent 1×1 GIF89a. */
    static final byte[] PIXEL = {
        'G', 'I', 'F', '8', '9', 'a', 1, 0, 1, 0, (byte) 0x80, 0, 0, 0, 0, 0, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
        '!', (byte) 0xF9, 4, 1, 0, 0, 0, 0, ',', 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 'D', 1, 0, ';'};

    private final TrackingTokens tokens;
    private final Tracker tracker;
    private final TrustedProxies proxies;
    private final PublicPage shell;

    TrackingHandler(TrackingTokens tokens, Tracker tracker, TrustedProxies proxies, PublicPage shell) {
        this.tokens = tokens;
        this.tracker = tracker;
        this.proxies = proxies;
        this.shell = shell;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        boolean head = HttpMethod.HEAD.is(method);
        if (!head && !HttpMethod.GET.is(method)) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            shell.sendError(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405);
            return true;
        }
        String path = request.getHttpURI().getPath();
        Optional<TrackingTokens.Target> target = target(path);
        if (target.isEmpty()) {
            shell.sendError(request, response, callback, HttpStatus.NOT_FOUND_404);
            return true;
        }
        TrackingTokens.Target t = target.get();
        Tracker.Request shape = new Tracker.Request(head, userAgent(request), client(request, proxies));
        try {
            if (t.click()) {
                Optional<String> url = tracker.click(t.campaignId(), t.recipientId(), t.linkIndex(), shape);
                if (url.isEmpty()) {
                    shell.sendError(request, response, callback, HttpStatus.NOT_FOUND_404);
                    return true;
                }
                response.setStatus(HttpStatus.FOUND_302);
                response.getHeaders().put(HttpHeader.LOCATION, url.get());
                response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
                response.getHeaders().put("Referrer-Policy", "no-referrer");
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0);
                response.write(true, null, callback);
            } else if (!tracker.open(t.campaignId(), t.recipientId(), shape)) {
                shell.sendError(request, response, callback, HttpStatus.NOT_FOUND_404);
            } else {
                response.setStatus(HttpStatus.OK_200);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "image/gif");
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, PIXEL.length);
                response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store, max-age=0");
                response.write(true, ByteBuffer.wrap(PIXEL), callback);
            }
        } catch (SQLException | RuntimeException e) {
            log.warn("tracking request for campaign={} could not be answered: {}", t.campaignId(), e.toString());
            shell.sendError(request, response, callback, HttpStatus.SERVICE_UNAVAILABLE_503);
        }
        return true;
    }

    /** The token's target when the path is {@code /c/<token>} or {@code /o/<token>.gif} and the token is genuine. */
    private Optional<TrackingTokens.Target> target(String path) {
        if (path == null) {
            return Optional.empty();
        }
        if (path.startsWith(TrackingTokens.CLICK_PREFIX)) {
            return tokens.verify(path.substring(TrackingTokens.CLICK_PREFIX.length())).filter(TrackingTokens.Target::click);
        }
        if (path.startsWith(TrackingTokens.OPEN_PREFIX) && path.endsWith(TrackingTokens.OPEN_SUFFIX)) {
            String token = path.substring(TrackingTokens.OPEN_PREFIX.length(), path.length() - TrackingTokens.OPEN_SUFFIX.length());
            return tokens.verify(token).filter(target -> !target.click());
        }
        return Optional.empty();
    }

    private static String userAgent(Request request) {
        String ua = request.getHeaders().get(HttpHeader.USER_AGENT);
        if (ua == null) {
            return "";
        }
        return ua.length() > MAX_USER_AGENT ? ua.substring(0, MAX_USER_AGENT) : ua;
    }

    /**
     * The client's address: the peer's, or behind the operator's proxies (tracking.trusted-proxies)
     * the one they forwarded ({@link TrustedProxies}).
     */
    static Optional<InetAddress> client(Request request, TrustedProxies proxies) {
        SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
        if (!(remote instanceof InetSocketAddress inet) || inet.getAddress() == null) {
            return Optional.empty();
        }
        // Every X-Forwarded-For line, split at commas; Jetty's header limits bound how many there are.
        return proxies.client(inet.getAddress(), request.getHeaders().getCSV(HttpHeader.X_FORWARDED_FOR, false));
    }
}
