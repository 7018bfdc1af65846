package dev.mailrun.http.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The answer to every request Jetty refuses before a route sees it — a malformed request line, an
 * ambiguous path such as {@code //metrics} or {@code /%2e%2e/metrics}, a head over the limits — and
 * to a route that fails: mailrun's own minimal page, UTF-8, with the headers of its other pages.
 * Jetty's default page would be ISO-8859-1, without those headers, and would quote the request's
 * URI and Jetty's reason; this one names only the status, and the connection is closed after it.
 */
final class ErrorPages extends ErrorHandler {

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = request.getAttribute(ERROR_STATUS) instanceof Integer s ? s : response.getStatus();
        HtmlResponse.sendAndClose(response, callback, errorStatus(status), page(errorStatus(status)));
        return true;
    }

    /** The body and headers of an answer Jetty writes without a request (the request line itself is bad). */
    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        int code = errorStatus(status);
        byte[] body = page(code).getBytes(StandardCharsets.UTF_8);
        HtmlResponse.headers(fields, body.length);
        fields.put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE);
        return ByteBuffer.wrap(body);
    }

    private static int errorStatus(int status) {
        return status >= 400 && status <= 599 ? status : HttpStatus.INTERNAL_SERVER_ERROR_500;
    }

    private static String page(int status) {
        String reason = HttpStatus.getMessage(status);
        return Html.error(status + " " + reason, status < 500 ? "The request could not be served as sent."
                : "The server could not answer this request.");
    }
}
