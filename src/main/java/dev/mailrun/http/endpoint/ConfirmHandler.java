package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.audience.signup.Signups;
import dev.mailrun.campaign.audience.signup.Signups.Confirmed;
import dev.mailrun.campaign.unsubscribe.SignupTokens;
import dev.mailrun.http.server.BodyReader;
import dev.mailrun.http.server.HttpLimits;
import dev.mailrun.http.server.PageTexts;
import java.sql.SQLException;
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
 * The confirmation link, {@code /confirm/<token>}. GET shows what it confirms and a button, and
 * changes nothing (mail scanners fetch every link); POST confirms. A forged or altered link is 400,
 * an expired one 410, one used already (or replaced by a newer sign-up's) 409: each a page saying
 * what to do, nothing changed.
 */
final class ConfirmHandler extends Handler.Abstract {

    private static final Logger log = LoggerFactory.getLogger(ConfirmHandler.class);
    private static final String PREFIX = SignupTokens.CONFIRM_PREFIX;

    private final Signups signups;
    private final SignupPages pages;
    private final HttpLimits limits;

    ConfirmHandler(Signups signups, SignupPages pages, HttpLimits limits) {
        this.signups = signups;
        this.pages = pages;
        this.limits = limits;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        PageTexts fallback = PageTexts.of(signups.settings().language());
        if (path == null || !path.startsWith(PREFIX) || path.length() == PREFIX.length() || path.indexOf('/', PREFIX.length()) >= 0) {
            pages.shell().send(response, callback, HttpStatus.NOT_FOUND_404, pages.message(fallback, "confirm.invalid"));
            return true;
        }
        String token = path.substring(PREFIX.length());
        String method = request.getMethod();
        if (HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method)) {
            answer(response, callback, token, false);
            return true;
        }
        if (!HttpMethod.POST.is(method)) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD, POST");
            pages.shell().send(response, callback, HttpStatus.METHOD_NOT_ALLOWED_405, pages.message(fallback, "page.method"));
            return true;
        }
        BodyReader.read(request, SignupHandler.MAX_FORM_BYTES, limits.bodyTimeout(), (outcome, failure) -> {
            switch (outcome) {
                case COMPLETE -> answer(response, callback, token, true);
                case TOO_LARGE -> pages.shell().sendAndClose(response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413,
                        pages.message(fallback, "page.too-large"));
                case TIMED_OUT -> pages.shell().sendAndClose(response, callback, HttpStatus.REQUEST_TIMEOUT_408,
                        pages.message(fallback, "page.too-slow"));
                case BROKEN -> callback.failed(failure);
            }
        });
        return true;
    }

    private void answer(Response response, Callback callback, String token, boolean confirm) {
        PageTexts fallback = PageTexts.of(signups.settings().language());
        try {
            Confirmed result = confirm ? signups.confirm(token) : signups.preview(token);
            if (result instanceof Confirmed.Pending p) {
                pages.shell().send(response, callback, HttpStatus.OK_200, pages.confirm(PageTexts.of(p.language()), p.address(), p.lists()));
            } else if (result instanceof Confirmed.Done d) {
                log.info("sign-up confirmed for lists {}", d.lists());
                pages.shell().send(response, callback, HttpStatus.OK_200,
                        pages.confirmed(PageTexts.of(d.language()), d.address(), d.lists(), d.at()));
            } else if (result instanceof Confirmed.Expired) {
                pages.shell().send(response, callback, HttpStatus.GONE_410, pages.message(fallback, "confirm.expired"));
            } else if (result instanceof Confirmed.Used) {
                pages.shell().send(response, callback, HttpStatus.CONFLICT_409, pages.message(fallback, "confirm.used"));
            } else {
                pages.shell().send(response, callback, HttpStatus.BAD_REQUEST_400, pages.message(fallback, "confirm.invalid"));
            }
        } catch (SQLException | RuntimeException e) {
            log.error("a confirmation could not be stored", e);
            pages.shell().send(response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, pages.message(fallback, "page.retry"));
        }
    }
}
