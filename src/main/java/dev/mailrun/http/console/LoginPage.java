package dev.mailrun.http.console;

import dev.mailrun.campaign.ApiTokens;
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

    Answer show(Optional<ConsoleSession> session) {
        if (session.isPresent()) {
            return Answer.redirect(ConsoleHandler.PREFIX + "/campaigns");
        }
        return Answer.ok(page(null));
    }

    /**
     * The form has no session to carry a CSRF token yet; a login posted from another origin is refused
     * instead (it would log the victim in as the attacker).
     */
    Answer submit(Map<String, String> form, boolean secure, boolean sameOrigin) throws Exception {
        if (!sameOrigin) {
            return new Answer.Page(403, page("This login form was posted from another site: open the console's own login page."));
        }
        String token = form.getOrDefault("token", "").strip();
        if (token.isEmpty()) {
            return new Answer.Page(400, page("Enter an API token (mailrun token create) or admin.token."));
        }
        if (token.length() > MAX_TOKEN) {
            return new Answer.Page(400, page("That is longer than any token (" + MAX_TOKEN + " characters at most)."));
        }
        Optional<ApiTokens.Caller> caller = services.authenticator().authenticateToken(token);
        if (caller.isEmpty()) {
            log.warn("console: a login with an unknown or revoked token was refused");
            return new Answer.Page(401, page("That token is not valid: it is unknown or revoked (mailrun token list)."));
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

    private String page(String error) {
        Map<String, Object> model = new java.util.HashMap<>();
        model.put("error", error);
        model.put("idleMinutes", services.sessions().idle().toMinutes());
        return views.render("login", null, model);
    }
}
