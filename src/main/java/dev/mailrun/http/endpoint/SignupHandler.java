package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.audience.signup.SignupForm;
import dev.mailrun.campaign.audience.signup.SignupGuard;
import dev.mailrun.campaign.audience.signup.Signups;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.store.audience.PublicListTable.PublicList;
import dev.mailrun.http.server.BodyReader;
import dev.mailrun.http.server.HttpLimits;
import dev.mailrun.http.server.PageTexts;
import dev.mailrun.http.server.TrustedProxies;
import java.net.InetAddress;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
 * The sign-up form, {@code /subscribe} (every public list, as checkboxes) and
 * {@code /subscribe/<list id or name>} (one public list). GET shows the form; POST signs up, after
 * {@link SignupGuard}'s checks. Every answer to a valid sign-up is the same page, whatever the address
 * was before (no enumeration). A body over {@value #MAX_FORM_BYTES} bytes is 413, a flood 429 with
 * Retry-After, bad fields 422 with the form again, each problem saying what to change.
 */
final class SignupHandler extends Handler.Abstract {

    static final String PREFIX = "/subscribe";
    static final int MAX_FORM_BYTES = 8 * 1024;
    private static final Logger log = LoggerFactory.getLogger(SignupHandler.class);

    private final Signups signups;
    private final SignupGuard guard;
    private final SignupPages pages;
    private final TrustedProxies proxies;
    private final HttpLimits limits;

    SignupHandler(Signups signups, SignupGuard guard, SignupPages pages, TrustedProxies proxies, HttpLimits limits) {
        this.signups = signups;
        this.guard = guard;
        this.pages = pages;
        this.proxies = proxies;
        this.limits = limits;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws SQLException {
        String path = request.getHttpURI().getPath();
        String rest = path == null || !path.startsWith(PREFIX) ? null : path.substring(PREFIX.length());
        if (rest == null || !(rest.isEmpty() || rest.equals("/") || (rest.startsWith("/") && rest.indexOf('/', 1) < 0))) {
            notFound(response, callback, signups.settings().language());
            return true;
        }
        String which = rest.length() > 1 ? rest.substring(1) : "";
        List<PublicList> all = signups.publicLists();
        List<PublicList> shown = which.isEmpty() ? all
                : all.stream().filter(l -> Long.toString(l.id()).equals(which) || l.name().equalsIgnoreCase(which)).limit(1).toList();
        String method = request.getMethod();
        if (HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method)) {
            if (shown.isEmpty()) {
                notFound(response, callback, signups.language(shown));
            } else {
                sendForm(response, callback, HttpStatus.OK_200, PageTexts.of(signups.language(shown)), shown,
                        SignupPages.Typed.NONE, List.of());
            }
            return true;
        }
        if (!HttpMethod.POST.is(method)) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD, POST");
            pages.shell().send(response, callback, HttpStatus.METHOD_NOT_ALLOWED_405,
                    pages.message(PageTexts.of(signups.language(shown)), "page.method"));
            return true;
        }
        PageTexts t = PageTexts.of(signups.language(shown));
        BodyReader.collect(request, Math.min(MAX_FORM_BYTES, limits.maxBodyBytes()), limits.bodyTimeout(), (outcome, body, failure) -> {
            switch (outcome) {
                case COMPLETE -> post(request, response, callback, all, shown, body, t);
                case TOO_LARGE -> pages.shell().sendAndClose(response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413,
                        pages.message(t, "page.too-large"));
                case TIMED_OUT -> pages.shell().sendAndClose(response, callback, HttpStatus.REQUEST_TIMEOUT_408,
                        pages.message(t, "page.too-slow"));
                case BROKEN -> callback.failed(failure);
            }
        });
        return true;
    }

    private void post(Request request, Response response, Callback callback, List<PublicList> all, List<PublicList> shown,
                      byte[] body, PageTexts t) {
        FormFields fields = FormFields.parse(body);
        String email = fields.first("email").strip();
        String name = fields.first("name");
        Set<Long> chosen = new LinkedHashSet<>();
        boolean unreadable = false;
        for (String v : fields.all("list")) {
            try {
                chosen.add(Long.parseLong(v.strip()));
            } catch (NumberFormatException e) {
                unreadable = true;
            }
        }
        String client = TrackingHandler.client(request, proxies).map(InetAddress::getHostAddress).orElse("unknown");
        List<PublicList> offered = shown.isEmpty() ? all : shown;
        SignupGuard.Verdict verdict = guard.check(fields.optional("form_token"), fields.first("website"),
                fields.optional("altcha"), client, email);
        if (verdict instanceof SignupGuard.Verdict.Limited limited) {
            long seconds = Math.max(1, limited.retryAfter().toSeconds());
            response.getHeaders().put(HttpHeader.RETRY_AFTER, seconds);
            pages.shell().send(response, callback, HttpStatus.TOO_MANY_REQUESTS_429,
                    pages.message(t, "signup.limited", (seconds + 59) / 60));
            return;
        }
        SignupPages.Typed typed = new SignupPages.Typed(email, name, chosen);
        if (verdict instanceof SignupGuard.Verdict.StaleForm) {
            sendForm(response, callback, HttpStatus.BAD_REQUEST_400, t, offered, typed, List.of(t.text("signup.error.form")));
            return;
        }
        if (verdict instanceof SignupGuard.Verdict.Unproven) {
            log.info("sign-up from {} refused: no valid proof of work", client);
            sendForm(response, callback, HttpStatus.BAD_REQUEST_400, t, offered, typed, List.of(t.text("signup.error.pow")));
            return;
        }
        if (verdict instanceof SignupGuard.Verdict.Silent silent) {
            log.info("sign-up from {} ignored: {}", client, silent.why());
            pages.shell().send(response, callback, HttpStatus.OK_200, pages.done(t, email));
            return;
        }
        try {
            if (unreadable) {
                throw InvalidFields.of("lists", "not a list id");
            }
            boolean mailed = signups.signUp(new SignupForm(email, Optional.of(name), List.copyOf(chosen), Optional.of(client)));
            log.info("sign-up to lists {}: {}", chosen, mailed ? "message sent" : "nothing sent");
            pages.shell().send(response, callback, HttpStatus.OK_200, pages.done(t, email));
        } catch (InvalidFields e) {
            List<String> problems = new ArrayList<>();
            for (InvalidFields.Problem p : e.problems()) {
                String key = switch (p.field()) {
                    case "email" -> "signup.error.email";
                    case "name" -> "signup.error.name";
                    default -> p.item().isPresent() ? "signup.error.list-unknown" : "signup.error.lists";
                };
                if (!problems.contains(t.text(key))) {
                    problems.add(t.text(key));
                }
            }
            sendForm(response, callback, HttpStatus.UNPROCESSABLE_ENTITY_422, t, offered, typed, problems);
        } catch (SQLException | RuntimeException e) {
            log.error("a sign-up could not be stored", e);
            pages.shell().send(response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, pages.message(t, "page.retry"));
        }
    }

    /** The form with a new token (and a new challenge when proof of work is on), with the solver allowed to run. */
    private void sendForm(Response response, Callback callback, int status, PageTexts t, List<PublicList> lists,
                          SignupPages.Typed typed, List<String> problems) {
        Optional<String> challenge = guard.challenge();
        String html = pages.form(t, lists, guard.formToken(), challenge, typed, problems);
        if (challenge.isPresent()) {
            pages.shell().send(response, callback, status, html, SignupPages.PROOF_SCRIPT);
        } else {
            pages.shell().send(response, callback, status, html);
        }
    }

    private void notFound(Response response, Callback callback, String language) {
        pages.shell().send(response, callback, HttpStatus.NOT_FOUND_404, pages.message(PageTexts.of(language), "page.not-found"));
    }

}
