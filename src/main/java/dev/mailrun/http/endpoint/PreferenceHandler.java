package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.audience.Erasure;
import dev.mailrun.campaign.audience.ErasureRequests;
import dev.mailrun.campaign.audience.Preferences;
import dev.mailrun.campaign.unsubscribe.PreferenceTokens;
import dev.mailrun.campaign.unsubscribe.PreferenceTokens.Kind;
import dev.mailrun.http.server.BodyReader;
import dev.mailrun.http.server.Html;
import dev.mailrun.http.server.HttpLimits;
import dev.mailrun.http.server.PageTexts;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
 * The preference centre (docs/PREFERENCES.md): {@code /p/<token>} and the erasure's confirmation,
 * {@code /p/erase/<token>}.
 *
 * <ul>
 *   <li>GET (and HEAD) shows a page and never changes anything: mail scanners fetch every link.</li>
 *   <li>POST carries out the action its button names ({@code save}, {@code leave-all}, {@code download},
 *       {@code erase}) once the body is read whole, the path's token is genuine, and the form's signed token
 *       ({@code csrf}, {@link Kind#FORM}) was made for the same address and campaign and has not expired.</li>
 *   <li>A forged, altered or expired token of either kind gets 400 and a page saying nothing changed; a
 *       malformed form 400; a list not offered 400; a body too large 413, too slow 408; any other path
 *       404, any other method 405.</li>
 * </ul>
 *
 * <p>Every page is in the public page shell, in the language the reader's browser asks for: a person
 * may be on lists of either language, so no list speaks for them here.
 */
final class PreferenceHandler extends Handler.Abstract {

    private static final Logger log = LoggerFactory.getLogger(PreferenceHandler.class);

    private final PreferenceCentre centre;
    private final PreferenceTokens tokens;
    private final PreferencePages pages;
    private final HttpLimits limits;

    PreferenceHandler(PreferenceCentre centre, PreferencePages pages, HttpLimits limits) {
        this.centre = centre;
        this.tokens = centre.tokens();
        this.pages = pages;
        this.limits = limits;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        boolean erase = path != null && path.startsWith(PreferenceTokens.ERASE_PREFIX);
        String prefix = erase ? PreferenceTokens.ERASE_PREFIX : PreferenceTokens.PATH_PREFIX;
        if (path == null || !path.startsWith(prefix) || path.length() == prefix.length() || path.indexOf('/', prefix.length()) >= 0) {
            pages.shell().sendError(request, response, callback, HttpStatus.NOT_FOUND_404);
            return true;
        }
        PageTexts t = PageTexts.forAcceptLanguage(request.getHeaders().get(HttpHeader.ACCEPT_LANGUAGE));
        String method = request.getMethod();
        boolean show = HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method);
        if (!show && !HttpMethod.POST.is(method)) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD, POST");
            send(response, callback, HttpStatus.METHOD_NOT_ALLOWED_405, pages.message(t, "bad-form"));
            return true;
        }
        Kind kind = erase ? Kind.ERASE : Kind.LINK;
        String token = path.substring(prefix.length());
        if (show) {
            Optional<PreferenceTokens.Target> target = tokens.verify(kind, token);
            if (target.isEmpty()) {
                send(response, callback, HttpStatus.BAD_REQUEST_400, pages.message(t, "invalid"));
            } else {
                guarded(t, response, callback, () -> erase ? pages.confirmErasure(t, target.get().address(), csrf(target.get()))
                        : centrePage(t, target.get(), Optional.empty()));
            }
            return true;
        }
        BodyReader.collect(request, limits.maxBodyBytes(), limits.bodyTimeout(), (outcome, body, failure) -> {
            switch (outcome) {
                case COMPLETE -> post(t, kind, token, body, response, callback);
                case TOO_LARGE -> sendAndClose(response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413, pages.message(t, "too-large"));
                case TIMED_OUT -> sendAndClose(response, callback, HttpStatus.REQUEST_TIMEOUT_408, pages.message(t, "timeout"));
                case BROKEN -> callback.failed(failure);
            }
        });
        return true;
    }

    private void post(PageTexts t, Kind kind, String token, byte[] body, Response response, Callback callback) {
        Optional<PreferenceTokens.Target> target = tokens.verify(kind, token);
        if (target.isEmpty()) {
            send(response, callback, HttpStatus.BAD_REQUEST_400, pages.message(t, "invalid"));
            return;
        }
        PreferenceForm form;
        try {
            form = PreferenceForm.parse(body);
        } catch (IllegalArgumentException e) {
            send(response, callback, HttpStatus.BAD_REQUEST_400, pages.message(t, "bad-form"));
            return;
        }
        if (!form.csrf().flatMap(c -> tokens.verify(Kind.FORM, c)).filter(target.get()::equals).isPresent()) {
            send(response, callback, HttpStatus.BAD_REQUEST_400, pages.message(t, "expired"));
            return;
        }
        PreferenceTokens.Target who = target.get();
        String action = form.action().orElse("");
        log.info("preference centre: {} from campaign {}", kind == Kind.ERASE ? "erasure confirmed" : action, who.campaignId());
        if (kind == Kind.ERASE) {
            if (!action.equals("erase")) {
                send(response, callback, HttpStatus.BAD_REQUEST_400, pages.message(t, "bad-form"));
                return;
            }
            guarded(t, response, callback, () -> {
                centre.erasure().erase(who.address(), Erasure.Via.PREFERENCES, "self");
                return pages.erased(t);
            });
            return;
        }
        switch (action) {
            case "save" -> guarded(t, response, callback, () -> {
                try {
                    Optional<Preferences.Changed> changed = centre.preferences().choose(who.address(), form.lists());
                    boolean any = changed.isPresent() && !(changed.get().joined().isEmpty() && changed.get().left().isEmpty());
                    return centrePage(t, who, Optional.of(t.html(any ? "prefs.saved" : "prefs.saved.nothing")));
                } catch (Preferences.UnknownList e) {
                    throw new Refused("unknown-list");
                }
            });
            case "leave-all" -> guarded(t, response, callback, () -> {
                centre.preferences().leaveAll(who.address());
                return centrePage(t, who, Optional.of(t.html("prefs.left-all")));
            });
            case "download" -> download(t, who, response, callback);
            case "erase" -> guarded(t, response, callback, () -> {
                String link = tokens.eraseLink(centre.base(), who.campaignId(), who.address());
                ErasureRequests.Result result = centre.requests().request(who.campaignId(), who.address(), t.text("prefs.mail.subject"),
                        t.text("prefs.mail.text", who.address(), link));
                String a = Html.escape(who.address());
                String note = switch (result) {
                    case SENT -> t.markup("prefs.erase.sent", a);
                    case TOO_SOON -> t.markup("prefs.erase.too-soon", a);
                    case NO_SENDER -> t.html("prefs.erase.no-sender");
                };
                return centrePage(t, who, Optional.of(note));
            });
            default -> send(response, callback, HttpStatus.BAD_REQUEST_400, pages.message(t, "bad-form"));
        }
    }

    private String centrePage(PageTexts t, PreferenceTokens.Target who, Optional<String> note) throws SQLException {
        return pages.centre(t, who.address(), centre.preferences().view(who.address()), csrf(who), note);
    }

    private String csrf(PreferenceTokens.Target who) {
        return tokens.token(Kind.FORM, who.campaignId(), who.address());
    }

    private void download(PageTexts t, PreferenceTokens.Target who, Response response, Callback callback) {
        Optional<String> json;
        try {
            json = centre.data().export(who.address());
        } catch (SQLException | RuntimeException e) {
            log.error("preference centre: the data of a subscriber could not be read", e);
            send(response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, pages.message(t, "failed"));
            return;
        }
        if (json.isEmpty()) {
            guarded(t, response, callback, () -> centrePage(t, who, Optional.empty()));
            return;
        }
        byte[] bytes = json.get().getBytes(StandardCharsets.UTF_8);
        response.setStatus(HttpStatus.OK_200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        response.getHeaders().put(HttpHeader.CONTENT_DISPOSITION, "attachment; filename=\"my-data.json\"");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        // The token is in the URL: never hand it to another site.
        response.getHeaders().put("Referrer-Policy", "no-referrer");
        response.getHeaders().put("Content-Security-Policy", pages.shell().contentSecurityPolicy());
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    /** A page made by {@code page}: a {@link Refused} is its 400 page, a failure the 500 page; nothing changed either way. */
    private void guarded(PageTexts t, Response response, Callback callback, PageWork page) {
        try {
            send(response, callback, HttpStatus.OK_200, page.make());
        } catch (Refused r) {
            send(response, callback, HttpStatus.BAD_REQUEST_400, pages.message(t, r.key));
        } catch (SQLException | IOException | RuntimeException e) {
            log.error("preference centre: a request could not be carried out", e);
            send(response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, pages.message(t, "failed"));
        }
    }

    @FunctionalInterface
    private interface PageWork {
        String make() throws SQLException, IOException, Refused;
    }

    /** A request refused with the page of {@code key}. */
    private static final class Refused extends Exception {
        private final String key;

        Refused(String key) {
            super(key, null, false, false);
            this.key = key;
        }
    }

    private void send(Response response, Callback callback, int status, String html) {
        pages.shell().send(response, callback, status, html);
    }

    private void sendAndClose(Response response, Callback callback, int status, String html) {
        pages.shell().sendAndClose(response, callback, status, html);
    }
}
