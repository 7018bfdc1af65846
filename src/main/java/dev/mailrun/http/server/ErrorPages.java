package dev.mailrun.http.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The answer to every request Jetty refuses before a route sees it — a malformed request line, an
 * ambiguous path such as {@code //metrics} or {@code /%2e%2e/metrics}, a head over the limits — and
 * to a route that fails or a request that arrives while the server stops (503). On a listener with a
 * page shell ({@link Listener#pages()}, the public one) the page is that shell's, saying what happened
 * and what to do in the reader's language; on any other, mailrun's own minimal page naming only the
 * status. Either is UTF-8 with the headers of mailrun's other pages; Jetty's default page would be
 * ISO-8859-1, without those headers, and would quote the request's URI and Jetty's reason. Neither
 * echoes the request. The connection is closed after it.
 */
final class ErrorPages extends ErrorHandler {

    /** The shell of each listener that has one, by its connector. */
    private final Map<Connector, PublicPage> shells;

    ErrorPages(Map<Connector, PublicPage> shells) {
        this.shells = Map.copyOf(shells);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = errorStatus(request.getAttribute(ERROR_STATUS) instanceof Integer s ? s : response.getStatus());
        PublicPage shell = shells.get(request.getConnectionMetaData().getConnector());
        if (shell == null) {
            HtmlResponse.sendAndClose(response, callback, status, page(status));
        } else {
            shell.sendAndClose(response, callback, status, shell.error(PublicPage.reader(request), status));
        }
        return true;
    }

    /**
     * The body and headers of an answer Jetty writes without a request. Jetty 12.1 routes even an
     * unreadable request line through {@link #handle} (with an empty request on its connection); this
     * stays for a caller that does not, and with no connection to tell the listener by, is the bare page.
     */
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
