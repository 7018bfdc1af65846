package dev.mailrun.http.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The one shell of the pages people see on the public listener (sign-up, confirmation, the preference
 * centre, one-click unsubscribe, their error pages, and the listener's own error answers: an unknown
 * path, a request Jetty refuses): the operator's look ({@link PageLook}), the page's language
 * ({@link PageTexts}), readable on a phone, usable by keyboard, with a strict Content-Security-Policy: no script (but
 * the sign-up form's proof of work, when on, inline and allowed by its hash), the one style sheet inline and allowed by its hash, images only from the logo's origin, forms posting only
 * back to this server.
 */
public final class PublicPage {

    /** The statuses with words of their own ({@code error.<status>.*}); any other is {@code error.4xx} or {@code error.5xx}. */
    private static final Set<Integer> WORDED = Set.of(400, 404, 405, 408, 413, 414, 431, 500, 503, 505);

    private final PageLook look;
    private final String css;
    private final String csp;
    private final Map<String, String> scriptPolicies = new ConcurrentHashMap<>();

    public PublicPage(PageLook look) {
        this.look = look;
        this.css = css(look);
        this.csp = "default-src 'none'; style-src '" + sha256(css) + "'; img-src "
                + look.logoOrigin().orElse("'none'") + "; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
    }

    public PageLook look() {
        return look;
    }

    /** The Content-Security-Policy every page of this shell is sent with. */
    public String contentSecurityPolicy() {
        return csp;
    }

    /**
     * A whole page: {@code title} (plain text) as its title and heading, {@code body} (HTML the caller
     * escaped) below it, the footer line, in {@code texts}' language.
     */
    public String render(PageTexts texts, String title, String body) {
        StringBuilder html = new StringBuilder(2048 + body.length());
        html.append("<!DOCTYPE html>\n<html lang=\"").append(Html.escape(texts.language())).append("\"><head><meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<meta name=\"robots\" content=\"noindex\">\n")
                .append("<title>").append(Html.escape(title)).append("</title>\n")
                .append("<style>").append(css).append("</style></head>\n<body><main>\n");
        look.logo().ifPresent(logo -> html.append("<img class=\"logo\" src=\"").append(Html.escape(logo.toString()))
                .append("\" alt=\"\">\n"));
        html.append("<h1>").append(Html.escape(title)).append("</h1>\n").append(body).append('\n');
        look.footer().ifPresent(f -> html.append("<footer>").append(Html.escape(f)).append("</footer>\n"));
        return html.append("</main></body></html>\n").toString();
    }

    /** A page that says, in one sentence, what happened or what to change. */
    public String message(PageTexts texts, String title, String sentence) {
        return render(texts, title, "<p>" + Html.escape(sentence) + "</p>");
    }

    /** The page of an error answer: what happened and what to do, in {@code texts}' language. */
    public String error(PageTexts texts, int status) {
        String key = "error." + (WORDED.contains(status) ? Integer.toString(status) : status < 500 ? "4xx" : "5xx");
        return message(texts, texts.text(key + ".title"), texts.text(key + ".body"));
    }

    /** Sends the error page of {@code status} in the language the request's {@code Accept-Language} prefers. */
    public void sendError(Request request, Response response, Callback callback, int status) {
        send(response, callback, status, error(reader(request), status));
    }

    /** The texts in the language the request's {@code Accept-Language} prefers (English when it names none we have). */
    public static PageTexts reader(Request request) {
        return PageTexts.forAcceptLanguage(request.getHeaders().get(HttpHeader.ACCEPT_LANGUAGE));
    }

    /** Sends a rendered page with this shell's headers. */
    public void send(Response response, Callback callback, int status, String html) {
        HtmlResponse.send(response, callback, status, html, csp);
    }

    /**
     * This shell's policy that also runs the one inline {@code script}, allowed by its hash (the
     * sign-up form's proof of work): still nothing loaded from anywhere.
     */
    public String contentSecurityPolicyWith(String script) {
        // The pages' one script is a constant: its hash is computed once, not for every page sent.
        return scriptPolicies.computeIfAbsent(script,
                s -> csp.replace("default-src 'none';", "default-src 'none'; script-src '" + sha256(s) + "';"));
    }

    /** Sends a rendered page that carries the inline {@code script}, allowed by its hash alone. */
    public void send(Response response, Callback callback, int status, String html, String script) {
        HtmlResponse.send(response, callback, status, html, contentSecurityPolicyWith(script));
    }

    /** Sends a rendered page and closes the connection after it (the rest of the request is not read). */
    public void sendAndClose(Response response, Callback callback, int status, String html) {
        HtmlResponse.sendAndClose(response, callback, status, html, csp);
    }

    private static String css(PageLook look) {
        return """
                *{box-sizing:border-box}\
                body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:1.05rem;line-height:1.5;\
                color:%2$s;background:#fff}\
                main{max-width:34em;margin:0 auto;padding:1.5em 1em}\
                .logo{max-width:100%%;max-height:4em;display:block;margin-bottom:1em}\
                h1{font-size:1.5rem;margin:.2em 0 .8em}\
                h2{font-size:1.15rem;margin:2em 0 .5em}\
                h1,p,label,strong{overflow-wrap:anywhere}\
                a{color:%1$s}\
                label{display:block;font-weight:600;margin:1em 0 .3em}\
                input[type=email],input[type=text]{width:100%%;font:inherit;padding:.55em;border:1px solid #6b7280;border-radius:4px}\
                fieldset{border:1px solid #d1d5db;border-radius:4px;margin:1em 0;padding:.5em 1em}\
                fieldset label{display:flex;gap:.5em;align-items:flex-start;font-weight:400;margin:.4em 0}\
                input[type=checkbox]{width:1.2em;height:1.2em;margin-top:.2em;flex:none}\
                .choice{display:flex;gap:.6em;align-items:flex-start;padding:.3em 0}\
                .choice label{display:block;font-weight:400;margin:0}\
                .choice small{display:block;font-size:.9rem;color:#4b5563}\
                button{font:inherit;font-weight:600;margin-top:1.2em;padding:.6em 1.4em;border:0;border-radius:4px;\
                background:%1$s;color:#fff;cursor:pointer;max-width:100%%}\
                button.danger{background:#b91c1c}\
                :focus-visible{outline:3px solid %1$s;outline-offset:2px}\
                .error{border-left:4px solid #b91c1c;padding:.3em .8em;color:#7f1d1d;background:#fef2f2}\
                .hint{font-size:.9rem;color:#4b5563}\
                .note{border-left:4px solid %1$s;padding:.3em .8em;background:#f3f4f6}\
                .trap{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}\
                footer{margin-top:2.5em;padding-top:1em;border-top:1px solid #e5e7eb;font-size:.85rem;color:#4b5563}\
                """.formatted(look.accent(), look.text());
    }

    private static String sha256(String css) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(css.getBytes(StandardCharsets.UTF_8));
            return "sha256-" + Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
