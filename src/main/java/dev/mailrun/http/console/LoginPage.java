package dev.mailrun.http.console;

import dev.mailrun.campaign.access.ApiTokens;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logging in with an API token (or admin.token), checked by the API's {@link dev.mailrun.http.api.Authenticator};
 * the session then carries the token's name and scopes, never the token. Logging out ends the session
 * here and clears the cookie.
 */
final class LoginPage {

    private static final Logger log = LoggerFactory.getLogger(LoginPage.class);
    private static final int MAX_TOKEN = 512;

    private final ConsoleServices services;
    private final Views views;

    LoginPage(ConsoleServices services, Views views) {
        this.services = services;
        this.views = views;
    }

    Answer show(Optional<ConsoleSession> session, boolean secure) {
        if (session.isPresent()) {
            return Answer.redirect(ConsoleHandler.PREFIX + "/campaigns");
        }
        return page(200, null, secure);
    }

    /**
     * There is no session yet to carry a CSRF token: the form carries its own, which must match the
     * cookie set with the form ({@link SessionCookie#LOGIN}); a login posted from another site has no
     * such cookie and is refused (it would log the victim in as the attacker).
     */
    Answer submit(Map<String, String> form, Optional<String> formCookie, boolean secure) throws Exception {
        String presented = form.get("login");
        if (formCookie.isEmpty() || presented == null || !java.security.MessageDigest.isEqual(
                formCookie.get().getBytes(StandardCharsets.US_ASCII), presented.getBytes(StandardCharsets.UTF_8))) {
            return page(403, "This login form is stale or was posted from another site: log in again here.", secure);
        }
        String token = form.getOrDefault("token", "").strip();
        if (token.isEmpty()) {
            return page(400, "Enter an API token (mailrun api-token create) or admin.token.", secure);
        }
        if (token.length() > MAX_TOKEN) {
            return page(400, "That is longer than any token (" + MAX_TOKEN + " characters at most).", secure);
        }
        Optional<ApiTokens.Caller> caller = services.authenticator().authenticateToken(token);
        if (caller.isEmpty()) {
            log.warn("console: a login with an unknown or revoked token was refused");
            return page(401, "That token is not valid: it is unknown or revoked (mailrun api-token list).", secure);
        }
        ConsoleSession session = services.sessions().open(caller.get());
        log.info("console: {} logged in", caller.get().name());
        return new Answer.Redirect(ConsoleHandler.PREFIX + "/campaigns", SessionCookie.set(session.id(), secure));
    }

    Answer logout(ConsoleSession session, boolean secure) {
        services.sessions().close(session);
        log.info("console: {} logged out", session.caller().name());
        return new Answer.Redirect(ConsoleHandler.PREFIX + "/login", SessionCookie.clear(secure));
    }

    /** The form, with a new form token in it and in its cookie. */
    private Answer page(int status, String error, boolean secure) {
        String formToken = services.sessions().randomId();
        Map<String, Object> model = new HashMap<>();
        model.put("error", error);
        model.put("login", formToken);
        model.put("idleMinutes", services.sessions().idle().toMinutes());
        return new Answer.Page(status, views.render("login", null, model), SessionCookie.login(formToken, secure));
    }
}
