package dev.mailrun.http.server;

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
 * An admin route that only reads: GET (and HEAD, without the body) gets what {@link Page} makes of the
 * moment; other methods 405. A page that fails answers 500 with one line and logs the cause.
 */
public final class ReadOnlyHandler extends Handler.Abstract {

    private static final Logger log = LoggerFactory.getLogger(ReadOnlyHandler.class);

    /** The answer to one request. */
    public record Reply(int status, String contentType, String body) {}

    @FunctionalInterface
    public interface Page {
        Reply make() throws Exception;
    }

    private final Page page;

    public ReadOnlyHandler(Page page) {
        this.page = page;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        if (!HttpMethod.GET.is(method) && !HttpMethod.HEAD.is(method)) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            TextResponse.send(response, callback, HttpStatus.METHOD_NOT_ALLOWED_405, TextResponse.PLAIN, "405 method not allowed\n");
            return true;
        }
        Reply reply;
        try {
            reply = page.make();
        } catch (Exception e) {
            log.error("{} failed", request.getHttpURI().getPath(), e);
            reply = new Reply(HttpStatus.INTERNAL_SERVER_ERROR_500, TextResponse.PLAIN,
                    "500 " + e.getClass().getSimpleName() + ": see the log\n");
        }
        TextResponse.send(response, callback, reply.status(), reply.contentType(), reply.body());
        return true;
    }
}
