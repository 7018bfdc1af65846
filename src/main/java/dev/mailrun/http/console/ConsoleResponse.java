package dev.mailrun.http.console;

import dev.mailrun.http.server.ClientGone;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes an {@link Answer} with the headers every console answer gets: never cached, never framed by
 * another page, never sniffed, no referrer sent onward, and a policy that allows this server's style
 * sheet and forms and nothing else — no script at all, inline or not.
 */
final class ConsoleResponse {

    /**
     * The console's pages: only our style sheet, forms posting back here, and frames of our own (the
     * template preview, which has its own policy and a sandbox without scripts).
     */
    static final String PAGE_POLICY = "default-src 'none'; style-src 'self'; img-src 'self'; frame-src 'self'; "
            + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
    /** A document shown as it is, such as the status report: inline styles, nothing runs, nothing loads. */
    static final String DOCUMENT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; "
            + "form-action 'none'; frame-ancestors 'none'";

    private static final Logger log = LoggerFactory.getLogger(ConsoleResponse.class);

    private ConsoleResponse() {}

    static void send(Request request, Response response, Callback callback, Answer answer) {
        HttpFields.Mutable headers = response.getHeaders();
        headers.put(HttpHeader.CACHE_CONTROL, "no-store");
        headers.put("X-Content-Type-Options", "nosniff");
        headers.put("X-Frame-Options", "DENY");
        // A browser then names the console (Origin, Referer) to the console itself, which a change requires, and to nobody else.
        headers.put("Referrer-Policy", "same-origin");
        headers.put("Cross-Origin-Opener-Policy", "same-origin");
        if (answer instanceof Answer.Page p) {
            if (p.setCookie() != null) {
                headers.add(HttpHeader.SET_COOKIE, p.setCookie());
            }
            whole(response, callback, p.status(), "text/html; charset=utf-8", p.html(), PAGE_POLICY);
        } else if (answer instanceof Answer.Document d) {
            if (d.framedByConsole()) {
                headers.put("X-Frame-Options", "SAMEORIGIN");
            }
            whole(response, callback, 200, d.contentType(), d.body(), d.contentSecurityPolicy());
        } else if (answer instanceof Answer.Redirect r) {
            if (r.setCookie() != null) {
                headers.add(HttpHeader.SET_COOKIE, r.setCookie());
            }
            headers.put(HttpHeader.LOCATION, r.location());
            whole(response, callback, 303, "text/plain; charset=utf-8", "see " + r.location() + "\n", PAGE_POLICY);
        } else if (answer instanceof Answer.Download d) {
            download(request, response, callback, d);
        } else if (answer instanceof Answer.Error e) {
            whole(response, callback, e.status(), "text/plain; charset=utf-8", e.message() + "\n", PAGE_POLICY);
        }
    }

    private static void whole(Response response, Callback callback, int status, String type, String body, String policy) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put("Content-Security-Policy", policy);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    private static void download(Request request, Response response, Callback callback, Answer.Download d) {
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, d.contentType());
        response.getHeaders().put("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
        // The name is ours (campaign-<id>-...), never the user's: no quoting or CR/LF can get in.
        response.getHeaders().put(HttpHeader.CONTENT_DISPOSITION, "attachment; filename=\"" + d.fileName() + "\"");
        try (Writer out = new OutputStreamWriter(Content.Sink.asOutputStream(response), StandardCharsets.UTF_8)) {
            d.body().write(out);
        } catch (Exception e) {
            // The status line has gone: all a broken download can do is end the connection.
            if (ClientGone.is(e)) {
                log.info("console {}: the client closed the connection before the end of the download", request.getHttpURI().getPath());
            } else {
                log.error("console {}: the download broke off", request.getHttpURI().getPath(), e);
            }
            callback.failed(e);
            return;
        }
        callback.succeeded();
    }
}
