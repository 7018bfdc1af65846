package dev.mailrun.http.console;

import dev.mailrun.http.server.HttpLimits;
import dev.mailrun.http.server.SessionCheck;
import dev.mailrun.http.api.ApiServices;
import dev.mailrun.http.api.Authenticator;
import java.security.SecureRandom;
import java.time.Duration;

/**
 * What the console works through: the HTTP API's services (the operator's API in {@code campaign},
 * its tokens, audit trail and settings), the stored templates and the test send ({@link ConsoleContent}),
 * the audience's lists, subscribers and segments ({@link ConsoleAudience}),
 * the same {@link Authenticator} the API asks, and the sessions.
 * {@code app} makes one and hands its {@link #handler} to the admin listener as {@code /console/*}, and its
 * {@link #sessionCheck()} to the routes a browser may open with a console login ({@code /status}).
 */
public final class ConsoleServices {

    /** How long a session lives however busy it is: a day's work, then log in again. */
    static final Duration LIFETIME = Duration.ofHours(12);

    private final ApiServices api;
    private final ConsoleContent content;
    private final ConsoleAudience audience;
    private final Authenticator authenticator;
    private final ConsoleSessions sessions;
    private final ConsoleProxy proxy;

    /** @param idle how long a session lasts without a request */
    public ConsoleServices(ApiServices api, ConsoleContent content, ConsoleAudience audience, Duration idle) {
        this(api, content, audience, idle, ConsoleProxy.NONE);
    }

    /** @param proxy the reverse proxy in front of the console, if any ({@code console.*}) */
    public ConsoleServices(ApiServices api, ConsoleContent content, ConsoleAudience audience, Duration idle, ConsoleProxy proxy) {
        this.api = api;
        this.content = content;
        this.audience = audience;
        this.proxy = proxy;
        this.authenticator = new Authenticator(api.tokens(), api.adminToken());
        this.sessions = new ConsoleSessions(api.clock(), idle, LIFETIME.compareTo(idle) < 0 ? idle : LIFETIME, new SecureRandom());
    }

    public ConsoleHandler handler(HttpLimits limits) {
        return new ConsoleHandler(this, limits);
    }

    /** Admits a request whose session may read campaigns: what {@code /status} asks of a browser. */
    public SessionCheck sessionCheck() {
        return sessions;
    }

    ApiServices api() {
        return api;
    }

    ConsoleContent content() {
        return content;
    }

    ConsoleAudience audience() {
        return audience;
    }

    Authenticator authenticator() {
        return authenticator;
    }

    ConsoleProxy proxy() {
        return proxy;
    }

    ConsoleSessions sessions() {
        return sessions;
    }
}
