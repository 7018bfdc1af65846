package dev.mailrun.http.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Sends one of the {@link Html} pages, with the headers every page gets. For HEAD, Jetty sends the same
 * status and headers (Content-Length included) and leaves the body out.
 */
public final class HtmlResponse {

    private HtmlResponse() {}

    /** The policy of the error and confirmation pages: no script, no fetch, inline styles, forms back here. */
    static final String CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'";

    public static void send(Response response, Callback callback, int status, String html) {
        send(response, callback, status, html, CSP);
    }

    /** A page sent with its own Content-Security-Policy ({@link PublicPage}'s). */
    public static void send(Response response, Callback callback, int status, String html, String csp) {
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        headers(response.getHeaders(), bytes.length, csp);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    /** The headers of a page of {@code length} bytes. */
    static void headers(HttpFields.Mutable headers, int length) {
        headers(headers, length, CSP);
    }

    private static void headers(HttpFields.Mutable headers, int length, String csp) {
        headers.put(HttpHeader.CONTENT_TYPE, "text/html; charset=utf-8");
        headers.put(HttpHeader.CONTENT_LENGTH, length);
        headers.put(HttpHeader.CACHE_CONTROL, "no-store");
        headers.put("X-Content-Type-Options", "nosniff");
        // The token is in the URL: never hand it to another site.
        headers.put("Referrer-Policy", "no-referrer");
        headers.put("Content-Security-Policy", csp);
    }

    /** An answer after which the connection is closed: the rest of the request is not worth reading. */
    public static void sendAndClose(Response response, Callback callback, int status, String html) {
        sendAndClose(response, callback, status, html, CSP);
    }

    /** {@link #sendAndClose}, with its own Content-Security-Policy. */
    public static void sendAndClose(Response response, Callback callback, int status, String html, String csp) {
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE);
        send(response, callback, status, html, csp);
    }
}
