package dev.mailrun.http.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Sends a whole text body (metrics, JSON, the status page) with the headers every admin answer gets.
 * Nothing is cached and nothing may load from anywhere: the pages draw their charts as inline SVG
 * and run no script.
 */
public final class TextResponse {

    public static final String PLAIN = "text/plain; charset=utf-8";
    public static final String JSON = "application/json";
    public static final String HTML = "text/html; charset=utf-8";
    /** Inline styles only: no scripts, images, fonts, frames or forms from anywhere, this server included. */
    static final String CONTENT_SECURITY_POLICY =
            "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private TextResponse() {}

    static void send(Response response, Callback callback, int status, String contentType, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        HttpFields.Mutable headers = response.getHeaders();
        headers.put(HttpHeader.CONTENT_TYPE, contentType);
        headers.put(HttpHeader.CONTENT_LENGTH, bytes.length);
        headers.put(HttpHeader.CACHE_CONTROL, "no-store");
        headers.put("X-Content-Type-Options", "nosniff");
        headers.put("Referrer-Policy", "no-referrer");
        headers.put("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }
}
