package dev.mailrun.http.console;

import dev.mailrun.campaign.access.ApiAudit;
import dev.mailrun.http.server.BodyReader;
import dev.mailrun.http.server.HttpLimits;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /console/*} on the admin listener. Every request, in this order:
 *
 * <ol>
 *   <li>the style sheet answers anyone; behind an authenticating proxy, the user it names gets (or
 *       keeps) a session ({@link ProxyLogin}), and {@code Secure} cookies follow what a trusted proxy
 *       says of the browser's scheme ({@link ConsoleProxy});</li>
 *   <li>the login page answers anyone; every other page needs a live session
 *       (none: a GET is sent to the login page, a POST refused with 403);</li>
 *   <li>matched to a {@link ConsoleRoute} (none: 404; GET only reads, every change is a POST);</li>
 *   <li>its scope checked against the session's token (403 naming the scope);</li>
 *   <li>for a POST: the body read (at most {@link #MAX_FORM_BYTES}, more where the route says so, or an
 *       upload's file to disk), a
 *       request naming no origin of this console refused ({@link #sameOrigin}), and the session's CSRF
 *       token required in the form (403);</li>
 *   <li>handed to the page; a change is recorded in the API's audit trail under the token's name (a
 *       POST that only reads, such as a template's preview, is not).</li>
 * </ol>
 */
public final class ConsoleHandler extends Handler.Abstract {

    static final String PREFIX = "/console";
    static final int MAX_FORM_BYTES = 64 * 1024;
    private static final Logger log = LoggerFactory.getLogger(ConsoleHandler.class);

    private final ConsoleServices services;
    private final HttpLimits limits;
    private final Views views;
    private final LoginPage login;
    private final List<ConsoleRoute> routes;
    private final UploadForm uploads;
    private final ProxyLogin proxyLogin;

    public ConsoleHandler(ConsoleServices services, HttpLimits limits) {
        this.services = services;
        this.limits = limits;
        this.views = new Views();
        this.login = new LoginPage(services, views);
        this.routes = ConsolePages.routes(services, views);
        this.uploads = new UploadForm(services.api().settings().maxUploadBytes());
        this.proxyLogin = new ProxyLogin(services, services.proxy());
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        if (path == null || !(path.equals(PREFIX) || path.startsWith(PREFIX + "/"))) {
            return false;
        }
        try {
            dispatch(request, response, callback, path.substring(PREFIX.length()));
        } catch (Exception e) {
            log.error("console {} {} failed", request.getMethod(), path, e);
            send(request, response, callback, Answer.error(500, "The console failed: see the worker's log."));
        }
        return true;
    }

    private void dispatch(Request request, Response response, Callback callback, String path) throws Exception {
        String method = request.getMethod();
        if (path.equals("/console.css") && isGet(method)) {
            send(request, response, callback, Stylesheet.answer());
            return;
        }
        boolean secure = services.proxy().secure(request);
        Optional<ConsoleSession> session = services.sessions().find(SessionCookie.read(request).orElse(null));
        ProxyLogin.Outcome proxied = proxyLogin.resolve(request, session);
        if (proxied instanceof ProxyLogin.Refused refused) {
            send(request, response, callback, refused.answer());
            return;
        }
        ProxyLogin.Go go = (ProxyLogin.Go) proxied;
        session = go.session();
        if (go.opened()) {
            response.getHeaders().add(HttpHeader.SET_COOKIE, SessionCookie.set(session.orElseThrow().id(), secure));
        }
        if (path.isEmpty() || path.equals("/")) {
            send(request, response, callback, Answer.redirect(PREFIX + (session.isPresent() ? "/campaigns" : "/login")));
            return;
        }
        if (path.equals("/login")) {
            if (isGet(method)) {
                send(request, response, callback, login.show(session, secure));
            } else if ("POST".equals(method)) {
                Optional<String> formCookie = SessionCookie.read(request, SessionCookie.LOGIN);
                form(request, response, callback, MAX_FORM_BYTES, fields -> login.submit(fields, formCookie, secure));
            } else {
                send(request, response, callback, Answer.error(405, "Use GET or POST."));
            }
            return;
        }
        if (session.isEmpty()) {
            send(request, response, callback, isGet(method) ? Answer.redirect(PREFIX + "/login")
                    : Answer.error(403, "You are not logged in (or the session ended): log in again."));
            return;
        }
        ConsoleSession s = session.get();
        if (path.equals("/logout") && "POST".equals(method)) {
            form(request, response, callback, MAX_FORM_BYTES, fields -> csrfChecked(request, s, fields, () -> login.logout(s, secure)));
            return;
        }
        for (ConsoleRoute route : routes) {
            Optional<Matcher> m = route.match(path);
            if (m.isEmpty() || !(route.method().equals(method) || isGet(route.method()) && "HEAD".equals(method))) {
                continue;
            }
            List<String> vars = groups(m.get());
            Map<String, String> query = FormFields.parse(request.getHttpURI().getQuery());
            if (!s.may(route.scope())) {
                refuse(request, response, callback, route, s, path, "this needs the scope " + route.scope().text());
            } else if (isGet(route.method())) {
                send(request, response, callback, route.page().handle(new ConsoleRequest(method, path, s, vars, query, Map.of(), secure)));
            } else if (UploadForm.isUpload(request)) {
                upload(request, response, callback, (fields, file) -> csrfChecked(request, s, fields,
                        () -> run(route, s, path, new ConsoleRequest(method, path, s, vars, query, fields, secure, file))));
            } else {
                form(request, response, callback, route.maxFormBytes(), fields -> csrfChecked(request, s, fields,
                        () -> run(route, s, path, new ConsoleRequest(method, path, s, vars, query, fields, secure))));
            }
            return;
        }
        send(request, response, callback, Answer.error(404, "There is no console page at " + PREFIX + path + "."));
    }

    @FunctionalInterface
    interface FormAction {
        Answer act(Map<String, String> fields) throws Exception;
    }

    @FunctionalInterface
    interface Action {
        Answer act() throws Exception;
    }

    /** Reads a urlencoded form whole (at most {@code maxBytes}), then answers what {@code action} makes of it. */
    private void form(Request request, Response response, Callback callback, int maxBytes, FormAction action) {
        BodyReader.collect(request, maxBytes, limits.bodyTimeout(), (outcome, body, failure) -> {
            switch (outcome) {
                case COMPLETE -> {
                    Answer answer;
                    try {
                        answer = action.act(FormFields.parse(new String(body, StandardCharsets.UTF_8)));
                    } catch (IllegalArgumentException e) {
                        answer = Answer.error(400, "The form could not be read: " + e.getMessage() + ".");
                    } catch (Exception e) {
                        log.error("console {} {} failed", request.getMethod(), request.getHttpURI().getPath(), e);
                        answer = Answer.error(500, "The console failed: see the worker's log.");
                    }
                    send(request, response, callback, answer);
                }
                case TOO_LARGE -> send(request, response, callback, Answer.error(413, "The form is over " + maxBytes + " bytes."));
                case TIMED_OUT -> send(request, response, callback, Answer.error(408, "The form did not arrive in time."));
                case BROKEN -> callback.failed(failure);
            }
        });
    }

    @FunctionalInterface
    interface UploadAction {
        Answer act(Map<String, String> fields, Optional<java.nio.file.Path> file) throws Exception;
    }

    /** Reads a multipart form with its file to disk, answers what {@code action} makes of it, then deletes the file. */
    private void upload(Request request, Response response, Callback callback, UploadAction action) throws Exception {
        uploads.read(request, "file", (received, failure) -> {
            Answer answer;
            if (failure != null) {
                String why = String.valueOf(failure.getMessage());
                answer = why.toLowerCase(java.util.Locale.ROOT).contains("max")
                        ? Answer.error(413, "The upload is over api.max-upload-bytes (" + uploads.maxBytes() + " bytes).")
                        : Answer.error(400, "The upload could not be read as a form with a file: send it again.");
            } else {
                try {
                    answer = action.act(received.fields(), received.file());
                } catch (Exception e) {
                    log.error("console {} {} failed", request.getMethod(), request.getHttpURI().getPath(), e);
                    answer = Answer.error(500, "The console failed: see the worker's log.");
                } finally {
                    received.file().ifPresent(UploadForm::deleteQuietly);
                }
            }
            send(request, response, callback, answer);
        });
    }

    /**
     * A change happens only from a form shown to the same login: its CSRF token must come back, and a
     * browser that names another origin is refused even then.
     */
    private Answer csrfChecked(Request request, ConsoleSession s, Map<String, String> fields, Action action) throws Exception {
        boolean sameOrigin = sameOrigin(request, services.proxy().scheme(request));
        if (!sameOrigin || !ConsoleSessions.csrfMatches(s, fields.get("csrf"))) {
            log.warn("console: refused (403) {} {} for {}: {}", request.getMethod(), request.getHttpURI().getPath(),
                    s.caller().name(), sameOrigin ? "no valid CSRF token" : "no Origin or Referer of this console");
            return Answer.error(403, "This form was not shown to your login (missing or stale security token): "
                    + "reload the page and try again.");
        }
        return action.act();
    }

    private Answer run(ConsoleRoute route, ConsoleSession s, String path, ConsoleRequest r) throws Exception {
        Answer answer;
        Optional<String> detail = Optional.empty();
        try {
            answer = route.page().handle(r);
        } catch (Refusal e) {
            detail = Optional.of(e.getMessage());
            s.flash(true, e.getMessage());
            answer = Answer.redirect(PREFIX + e.back());
        }
        int status = answer instanceof Answer.Page p ? p.status() : 200;
        if (route.audited().isPresent()) {
            audit(s, route.audited().get(), path, detail.isPresent() ? 409 : status, detail);
        }
        return answer;
    }

    private void refuse(Request request, Response response, Callback callback, ConsoleRoute route, ConsoleSession s,
                        String path, String why) {
        route.audited().ifPresent(action -> audit(s, action, path, 403, Optional.of(why)));
        send(request, response, callback, Answer.error(403, "Forbidden: " + why + "; your token does not have it."));
    }

    private void audit(ConsoleSession s, String action, String path, int status, Optional<String> detail) {
        ApiAudit audit = services.api().audit();
        try {
            audit.record(s.caller().name(), action, PREFIX + path, status, detail);
        } catch (Exception e) {
            log.error("console: the audit entry for {} {} could not be written", action, path, e);
        }
    }

    /**
     * Whether the browser says the request comes from a page of this server. {@code Origin} decides
     * when it names an origin; otherwise {@code Sec-Fetch-Site} when sent, then the origin of
     * {@code Referer}. A request that says none of these (or only {@code Origin: null}, what sandboxed
     * and opaque pages send) is refused: the CSRF token alone is not enough. The console's
     * {@code Referrer-Policy: same-origin} lets a browser send its Origin and Referer to the console
     * and to nobody else. Behind a proxy that ends TLS the browser's scheme is https while ours is
     * http: {@code scheme} is the browser's.
     */
    static boolean sameOrigin(Request request, String scheme) {
        String host = request.getHeaders().get(HttpHeader.HOST);
        if (host == null) {
            return false;
        }
        String ours = scheme + "://" + host;
        String origin = request.getHeaders().get(HttpHeader.ORIGIN);
        if (origin != null && !origin.equals("null")) {
            return origin.equalsIgnoreCase(ours);
        }
        String fetchSite = request.getHeaders().get("Sec-Fetch-Site");
        if (fetchSite != null) {
            return fetchSite.equals("same-origin");
        }
        String referer = request.getHeaders().get(HttpHeader.REFERER);
        return referer != null && referer.regionMatches(true, 0, ours + "/", 0, ours.length() + 1);
    }

    private static boolean isGet(String method) {
        return "GET".equals(method) || "HEAD".equals(method);
    }

    private static List<String> groups(Matcher m) {
        return java.util.stream.IntStream.rangeClosed(1, m.groupCount()).mapToObj(m::group).toList();
    }

    private void send(Request request, Response response, Callback callback, Answer answer) {
        if (answer instanceof Answer.Error e) {
            answer = new Answer.Page(e.status(), views.render("error", null, Map.of("status", e.status(), "message", e.message())));
        }
        ConsoleResponse.send(request, response, callback, answer);
    }
}
