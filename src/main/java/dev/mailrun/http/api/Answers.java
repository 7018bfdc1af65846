package dev.mailrun.http.api;

import dev.mailrun.http.server.ClientGone;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writes an {@link ApiResponse}: the headers every API answer gets, then the body, whole or streamed. */
final class Answers {

    private static final Logger log = LoggerFactory.getLogger(Answers.class);

    private Answers() {}

    static void send(Request request, Response response, Callback callback, ApiResponse answer) {
        response.setStatus(answer.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, answer.contentType());
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        answer.headers().forEach((name, value) -> response.getHeaders().put(name, value));
        if (!answer.streamed()) {
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, answer.body().length);
            response.write(true, ByteBuffer.wrap(answer.body()), callback);
            return;
        }
        try (OutputStream out = Content.Sink.asOutputStream(response)) {
            answer.writeTo(out);
        } catch (Exception e) {
            // The status line has gone: all a broken stream can do is end the connection.
            if (ClientGone.is(e)) {
                log.info("API {}: the client closed the connection before the end of the answer", request.getHttpURI().getPath());
            } else {
                log.error("API {}: the streamed answer broke off", request.getHttpURI().getPath(), e);
            }
            callback.failed(e);
            return;
        }
        callback.succeeded();
    }
}
