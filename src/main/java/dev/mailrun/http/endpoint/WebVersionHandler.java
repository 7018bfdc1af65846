package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.WebVersions;
import dev.mailrun.campaign.unsubscribe.WebVersionTokens;
import dev.mailrun.http.server.PageTexts;
import dev.mailrun.http.server.PublicPage;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Optional;
import org.eclipse.jetty.http.HttpFields;
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
 * The web version endpoint, {@code /w/<token>} (docs/CONTENT.md, "Web version"): GET (and HEAD) shows
 * the message the token's recipient was sent. A token that is malformed, altered, forged or expired,
 * or names a campaign or recipient that is gone, gets the one 404 page every unknown path gets, so
 * the answer says nothing of why. Any other method gets 405.
 *
 * <p>The page is the operator's HTML, served on the operator's domain: its policy lets no script run,
 * nothing load but images over https (and inline ones), nothing be posted or framed; no referrer leaks
 * the token to the sites it links to; nothing caches or indexes a page that holds a person's data.
 * The pages that say why no message is shown (404, 405, 500) are mailrun's own, in the public page shell
 * and the language the reader's browser asks for.
 */
final class WebVersionHandler extends Handler.Abstract {

    private static final Logger log = LoggerFactory.getLogger(WebVersionHandler.class);
    private static final String PREFIX = WebVersionTokens.PATH_PREFIX;
    /**
     * No script, images over https or inline, inline styles; form-action, base-uri and frame-ancestors
     * are not covered by default-src, so they are closed one by one.
     */
    static final String POLICY = "default-src 'none'; img-src https: data:; style-src 'unsafe-inline'; "
            + "form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

    private final WebVersionTokens tokens;
    private final String base;
    private final WebVersions pages;
    private final PublicPage shell;

    /** @param base the public URL the links are made on (unsubscribe.base-url, normalised) */
    WebVersionHandler(WebVersionTokens tokens, URI base, WebVersions pages, PublicPage shell) {
        this.tokens = tokens;
        this.base = base.toString();
        this.pages = pages;
        this.shell = shell;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        if (!HttpMethod.GET.is(method) && !HttpMethod.HEAD.is(method)) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            notice(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405, "web.method");
            return true;
        }
        String path = request.getHttpURI().getPath();
        Optional<WebVersionTokens.Target> target = path != null && path.startsWith(PREFIX)
                && path.indexOf('/', PREFIX.length()) < 0 ? tokens.verify(path.substring(PREFIX.length())) : Optional.empty();
        if (target.isEmpty()) {
            shell.sendError(request, response, callback, HttpStatus.NOT_FOUND_404);
            return true;
        }
        WebVersionTokens.Target t = target.get();
        Optional<String> page;
        try {
            page = pages.page(t.campaignId(), t.recipientId(), base + path);
        } catch (SQLException | RuntimeException e) {
            log.error("web version of campaign {} recipient {} could not be read", t.campaignId(), t.recipientId(), e);
            notice(request, response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, "page.unavailable");
            return true;
        }
        if (page.isEmpty()) {
            shell.sendError(request, response, callback, HttpStatus.NOT_FOUND_404);
            return true;
        }
        byte[] bytes = page.get().getBytes(StandardCharsets.UTF_8);
        response.setStatus(HttpStatus.OK_200);
        headers(response.getHeaders(), bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
        return true;
    }

    /** mailrun's own page titled {@code key}.title saying {@code key}.body, in the reader's language. */
    private void notice(Request request, Response response, Callback callback, int status, String key) {
        PageTexts t = PageTexts.forAcceptLanguage(request.getHeaders().get(HttpHeader.ACCEPT_LANGUAGE));
        shell.send(response, callback, status, shell.message(t, t.text(key + ".title"), t.text(key + ".body")));
    }

    private static void headers(HttpFields.Mutable headers, int length) {
        headers.put(HttpHeader.CONTENT_TYPE, "text/html; charset=utf-8");
        headers.put(HttpHeader.CONTENT_LENGTH, length);
        headers.put(HttpHeader.CACHE_CONTROL, "private, no-store");
        headers.put("X-Content-Type-Options", "nosniff");
        headers.put("Referrer-Policy", "no-referrer");
        headers.put("X-Robots-Tag", "noindex");
        headers.put("Content-Security-Policy", POLICY);
    }
}
