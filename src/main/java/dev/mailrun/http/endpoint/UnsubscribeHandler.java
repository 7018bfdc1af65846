package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.unsubscribe.UnsubscribeTarget;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.http.server.BodyReader;
import dev.mailrun.http.server.HttpLimits;
import dev.mailrun.http.server.PageTexts;
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
 *
 * <p>Every page is in the public page shell. The question and the answer are in the language of the
 * campaign's lists (the first that has its own, else {@code signup.language}); for a campaign sent to no
 * list, and for a page before the token is read, in the language the reader's browser asks for.
 */
final class UnsubscribeHandler extends Handler.Abstract {

    private static final Logger log = LoggerFactory.getLogger(UnsubscribeHandler.class);
    private static final String PREFIX = UnsubscribeTokens.PATH_PREFIX;

    private final UnsubscribeTokens tokens;
    private final Unsubscriber unsubscriber;
    private final UnsubscribePages pages;
    private final String listLanguage;
    private final HttpLimits limits;

    /** @param listLanguage the language of a list without its own (en, de) */
    UnsubscribeHandler(UnsubscribeTokens tokens, Unsubscriber unsubscriber, UnsubscribePages pages, String listLanguage,
                       HttpLimits limits) {
        this.tokens = tokens;
        this.unsubscriber = unsubscriber;
        this.pages = pages;
        this.listLanguage = listLanguage;
        this.limits = limits;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        if (path == null || !path.startsWith(PREFIX) || path.length() == PREFIX.length()
                || path.indexOf('/', PREFIX.length()) >= 0) {
            pages.shell().sendError(request, response, callback, HttpStatus.NOT_FOUND_404);
            return true;
        }
        PageTexts reader = PageTexts.forAcceptLanguage(request.getHeaders().get(HttpHeader.ACCEPT_LANGUAGE));
        String method = request.getMethod();
        boolean show = HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method);
        if (!show && !HttpMethod.POST.is(method)) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD, POST");
            send(response, callback, HttpStatus.METHOD_NOT_ALLOWED_405, pages.message(reader, "unsubscribe.method"));
            return true;
        }
        String token = path.substring(PREFIX.length());
        if (show) {
            Optional<UnsubscribeTarget> target = tokens.verify(token);
            if (target.isEmpty()) {
                send(response, callback, HttpStatus.BAD_REQUEST_400, pages.message(reader, "unsubscribe.invalid"));
            } else {
                confirm(target.get(), reader, response, callback);
            }
            return true;
        }
        // The body's limits come first, whatever the token: a body too large is 413 on every path.
        BodyReader.read(request, limits.maxBodyBytes(), limits.bodyTimeout(), (outcome, failure) -> {
            switch (outcome) {
                case COMPLETE -> tokens.verify(token).ifPresentOrElse(target -> unsubscribe(target, reader, response, callback),
                        () -> send(response, callback, HttpStatus.BAD_REQUEST_400, pages.message(reader, "unsubscribe.invalid")));
                case TOO_LARGE -> pages.shell().sendAndClose(response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413,
                        pages.message(reader, "unsubscribe.too-large"));
                case TIMED_OUT -> pages.shell().sendAndClose(response, callback, HttpStatus.REQUEST_TIMEOUT_408,
                        pages.message(reader, "page.too-slow"));
                case BROKEN -> callback.failed(failure);
            }
        });
        return true;
    }

    private void confirm(UnsubscribeTarget target, PageTexts reader, Response response, Callback callback) {
        try {
            Unsubscriber.Scope scope = unsubscriber.scope(target.campaignId());
            send(response, callback, HttpStatus.OK_200, pages.confirm(texts(scope, reader), target.address(), scope));
        } catch (SQLException | RuntimeException e) {
            log.error("unsubscribe page campaign={} could not be read", target.campaignId(), e);
            send(response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, pages.message(reader, "page.unavailable"));
        }
    }

    private void unsubscribe(UnsubscribeTarget target, PageTexts reader, Response response, Callback callback) {
        try {
            Unsubscriber.Result result = unsubscriber.unsubscribe(target);
            if (result == Unsubscriber.Result.INVALID_ADDRESS) {
                send(response, callback, HttpStatus.BAD_REQUEST_400, pages.message(reader, "unsubscribe.invalid-address"));
                return;
            }
            log.info("unsubscribe campaign={} recipient={}: {}", target.campaignId(), target.recipientId(), result);
            Unsubscriber.Scope scope = unsubscriber.scope(target.campaignId());
            send(response, callback, HttpStatus.OK_200, pages.done(texts(scope, reader), target.address(), scope));
        } catch (SQLException | RuntimeException e) {
            log.error("unsubscribe campaign={} recipient={} could not be stored", target.campaignId(), target.recipientId(), e);
            send(response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, pages.message(reader, "page.retry"));
        }
    }

    /** The lists' language where the campaign names lists; else the reader's. */
    private PageTexts texts(Unsubscriber.Scope scope, PageTexts reader) {
        return scope.lists().isEmpty() ? reader : PageTexts.of(scope.language().orElse(listLanguage));
    }

    private void send(Response response, Callback callback, int status, String html) {
        pages.shell().send(response, callback, status, html);
    }
}
