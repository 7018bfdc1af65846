package dev.mailrun.http.console;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.server.Request;

/**
 * The session cookie: {@code HttpOnly} (no script reads it), {@code SameSite=Strict} (no other site's
 * page sends it, so a cross-site form arrives without a session), {@code Secure} when the console is
 * served over https, {@code Path=/} so that {@code /status} receives it too, and no {@code Max-Age}:
 * it lasts the browser session, the server ends it sooner when idle.
 */
final class SessionCookie {

    static final String NAME = "mailrun_console";
    /** What {@link ConsoleSessions} hands out: 32 random bytes, base64url. Anything else is not looked up. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{43}");

    private SessionCookie() {}

    static Optional<String> read(Request request) {
        List<HttpCookie> cookies = Request.getCookies(request);
        return cookies.stream().filter(c -> NAME.equals(c.getName())).map(HttpCookie::getValue)
                .filter(v -> v != null && ID.matcher(v).matches()).findFirst();
    }

    static String set(String id, boolean secure) {
        return NAME + "=" + id + "; Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }

    static String clear(boolean secure) {
        return NAME + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }
}
