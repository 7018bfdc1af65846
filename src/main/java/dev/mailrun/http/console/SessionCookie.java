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

    /**
     * The login form's own token: set with the form, expected back in it. A form posted from another
     * site arrives without this cookie (SameSite=Strict), so nobody can log a browser in as someone else.
     */
    static final String LOGIN = "mailrun_login";

    static Optional<String> read(Request request) {
        return read(request, NAME);
    }

    static Optional<String> read(Request request, String name) {
        List<HttpCookie> cookies = Request.getCookies(request);
        return cookies.stream().filter(c -> name.equals(c.getName())).map(HttpCookie::getValue)
                .filter(v -> v != null && ID.matcher(v).matches()).findFirst();
    }

    /** The login form's cookie: for the login path only, ten minutes. */
    static String login(String value, boolean secure) {
        return LOGIN + "=" + value + "; Path=" + ConsoleHandler.PREFIX + "/login; Max-Age=600; HttpOnly; SameSite=Strict"
                + (secure ? "; Secure" : "");
    }

    static String set(String id, boolean secure) {
        return NAME + "=" + id + "; Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }

    static String clear(boolean secure) {
        return NAME + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }
}
