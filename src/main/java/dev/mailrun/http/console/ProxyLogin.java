package dev.mailrun.http.console;

import dev.mailrun.campaign.access.ApiTokens;
import java.util.Optional;
import org.eclipse.jetty.server.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logging in through an authenticating reverse proxy ({@code console.auth-header}): a user the
 * trusted proxy names gets a session at its first page, as {@code proxy:<user>} with the scopes of
 * the API token {@code console.proxy-token} has at that moment. Sessions, their cookie and CSRF
 * tokens work as after a login with a token.
 *
 * <ul>
 *   <li>A session of another user than the proxy now names is ended: the proxy decides who this is.</li>
 *   <li>Only a GET opens a session: a POST from a page shown to no session of this user could not
 *       carry its CSRF token, and is refused as without a login.</li>
 *   <li>A user name mailrun does not take (over 128 characters, not printable ASCII, sent twice), or a
 *       proxy token that is missing or revoked, refuses the request with a page saying so.</li>
 * </ul>
 */
final class ProxyLogin {

    private static final Logger log = LoggerFactory.getLogger(ProxyLogin.class);

    /** The session the request goes on with (none: as without a login), or a page that refuses it. */
    sealed interface Outcome permits Go, Refused {}

    /** @param opened whether the session was opened by this request (its cookie must be set) */
    record Go(Optional<ConsoleSession> session, boolean opened) implements Outcome {}

    record Refused(Answer answer) implements Outcome {}

    private final ConsoleServices services;
    private final ConsoleProxy proxy;

    ProxyLogin(ConsoleServices services, ConsoleProxy proxy) {
        this.services = services;
        this.proxy = proxy;
    }

    Outcome resolve(Request request, Optional<ConsoleSession> session) throws Exception {
        ConsoleProxy.Proxied proxied = proxy.user(request);
        if (proxied instanceof ConsoleProxy.Invalid invalid) {
            log.warn("console: refused a login through the proxy: {}", invalid.why());
            return new Refused(Answer.error(400, "The console cannot take the login your proxy passed on: "
                    + invalid.why() + " (a user name is at most " + ConsoleProxy.MAX_USER
                    + " printable ASCII characters)."));
        }
        if (!(proxied instanceof ConsoleProxy.User user)) {
            return new Go(session, false);
        }
        if (session.isPresent()) {
            if (session.get().caller().name().equals(user.actor())) {
                return new Go(session, false);
            }
            services.sessions().close(session.get());
            log.info("console: the proxy names {}, so the session of {} ended", user.actor(), session.get().caller().name());
        }
        String method = request.getMethod();
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            return new Go(Optional.empty(), false);
        }
        String tokenName = proxy.proxyToken().orElseThrow();
        Optional<ApiTokens.Caller> token = services.api().tokens().live(tokenName);
        if (token.isEmpty()) {
            log.warn("console: refused {} through the proxy: console.proxy-token {} is unknown or revoked", user.actor(), tokenName);
            return new Refused(Answer.error(403, "Your proxy logged you in as " + user.name() + ", but console.proxy-token ("
                    + tokenName + ") names no live API token (unknown or revoked): an operator must create it "
                    + "(mailrun api-token create) or name another one."));
        }
        ConsoleSession opened = services.sessions().open(new ApiTokens.Caller(user.actor(), token.get().scopes()));
        log.info("console: {} logged in through the proxy with the scopes of token {}", user.actor(), tokenName);
        return new Go(Optional.of(opened), true);
    }
}
