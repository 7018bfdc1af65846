package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.unsubscribe.UnsubscribeTarget;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.http.server.BodyReader;
import dev.mailrun.http.server.Html;
import dev.mailrun.http.server.HtmlResponse;
import dev.mailrun.http.server.HttpLimits;
import dev.mailrun.http.server.NotFoundHandler;
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
 * The unsubscribe endpoint, {@code /u/<token>}.
 *
 * <ul>
 *   <li>GET (and HEAD, the same answer without its body) shows a confirmation page with a button and
 *       never unsubscribes: mail security scanners fetch every link in a message, and a GET that
 *       unsubscribed would unsubscribe everyone.</li>
 *   <li>POST unsubscribes, whatever its body: the RFC 8058 one-click POST
 *       ({@code List-Unsubscribe=One-Click}, urlencoded or multipart) and the page's own button alike.
 *       The signed token is the authority; no cookies, no redirects, and a repeat POST answers 200.
 *       The body is read to its end first, so a request cut off on the way changes nothing.</li>
 *   <li>A malformed, tampered or forged token gets 400 and changes nothing; any other path 404;
 *       any other method 405; a POST body too large 413 and too slow 408, whatever its token.</li>
 * </ul>
 */
final class UnsubscribeHandler extends Handler.Abstract {

    private static final Logger log = LoggerFactory.getLogger(UnsubscribeHandler.class);
    private static final String PREFIX = UnsubscribeTokens.PATH_PREFIX;

    private final UnsubscribeTokens tokens;
    private final Unsubscriber unsubscriber;
    private final HttpLimits limits;

    UnsubscribeHandler(UnsubscribeTokens tokens, Unsubscriber unsubscriber, HttpLimits limits) {
        this.tokens = tokens;
        this.unsubscriber = unsubscriber;
        this.limits = limits;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        if (path == null || !path.startsWith(PREFIX) || path.length() == PREFIX.length()
                || path.indexOf('/', PREFIX.length()) >= 0) {
            NotFoundHandler.send(response, callback);
            return true;
        }
        String method = request.getMethod();
        boolean show = HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method);
        if (!show && !HttpMethod.POST.is(method)) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD, POST");
            HtmlResponse.send(response, callback, HttpStatus.METHOD_NOT_ALLOWED_405,
                    Html.error("Method not allowed", "Use the link or the button in the message."));
            return true;
        }
        String token = path.substring(PREFIX.length());
        if (show) {
            Optional<UnsubscribeTarget> target = tokens.verify(token);
            if (target.isEmpty()) {
                invalidLink(response, callback);
            } else {
                confirm(target.get(), response, callback);
            }
            return true;
        }
        // The body's limits come first, whatever the token: a body too large is 413 on every path.
        BodyReader.read(request, limits.maxBodyBytes(), limits.bodyTimeout(), (outcome, failure) -> {
            switch (outcome) {
                case COMPLETE -> tokens.verify(token).ifPresentOrElse(target -> unsubscribe(target, response, callback),
                        () -> invalidLink(response, callback));
                case TOO_LARGE -> HtmlResponse.sendAndClose(response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413,
                        Html.error("Request too large", "Use the button in the message."));
                case TIMED_OUT -> HtmlResponse.sendAndClose(response, callback, HttpStatus.REQUEST_TIMEOUT_408,
                        Html.error("Request timed out", "Please try again."));
                case BROKEN -> callback.failed(failure);
            }
        });
        return true;
    }

    private static void invalidLink(Response response, Callback callback) {
        HtmlResponse.send(response, callback, HttpStatus.BAD_REQUEST_400, Html.error("Invalid link",
                "This unsubscribe link is not valid. Please use the link from the message exactly as it is."));
    }

    private void confirm(UnsubscribeTarget target, Response response, Callback callback) {
        try {
            HtmlResponse.send(response, callback, HttpStatus.OK_200,
                    UnsubscribePages.confirm(target.address(), unsubscriber.scope(target.campaignId())));
        } catch (SQLException | RuntimeException e) {
            log.error("unsubscribe page campaign={} could not be read", target.campaignId(), e);
            HtmlResponse.send(response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500,
                    Html.error("Please try again", "This page could not be shown just now."));
        }
    }

    private void unsubscribe(UnsubscribeTarget target, Response response, Callback callback) {
        try {
            Unsubscriber.Result result = unsubscriber.unsubscribe(target);
            if (result == Unsubscriber.Result.INVALID_ADDRESS) {
                HtmlResponse.send(response, callback, HttpStatus.BAD_REQUEST_400,
                        Html.error("Invalid link", "This unsubscribe link does not name a valid address."));
                return;
            }
            log.info("unsubscribe campaign={} recipient={}: {}", target.campaignId(), target.recipientId(), result);
            HtmlResponse.send(response, callback, HttpStatus.OK_200,
                    UnsubscribePages.done(target.address(), unsubscriber.scope(target.campaignId())));
        } catch (SQLException | RuntimeException e) {
            log.error("unsubscribe campaign={} recipient={} could not be stored", target.campaignId(), target.recipientId(), e);
            HtmlResponse.send(response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500,
                    Html.error("Please try again", "Your request could not be recorded just now."));
        }
    }
}
