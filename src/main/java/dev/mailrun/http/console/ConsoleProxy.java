package dev.mailrun.http.console;

import dev.mailrun.http.server.TrustedProxies;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.jetty.server.Request;

/**
 * The reverse proxy in front of the console ({@code console.*}): which peers are the operator's proxies,
 * and what their headers are believed to say. Only a request whose immediate peer is inside
 * {@code proxies} has its {@code X-Forwarded-Proto} or {@code authHeader} read; from any other
 * address both are ignored, whatever they say.
 *
 * @param authHeader the header an authenticating proxy names its user in ({@code console.auth-header}); empty: none is read
 * @param proxies    {@code console.trusted-proxies}
 * @param proxyToken the API token whose scopes a proxied user gets ({@code console.proxy-token}), looked up at each login
 */
public record ConsoleProxy(Optional<String> authHeader, TrustedProxies proxies, Optional<String> proxyToken) {

    public static final ConsoleProxy NONE = new ConsoleProxy(Optional.empty(), TrustedProxies.NONE, Optional.empty());

    /** A header's name (RFC 9110 token characters), so that no configured name can carry CR/LF or a colon. */
    public static final Pattern HEADER_NAME = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}");
    /** Longest user name a proxy may pass: the audit trail keeps it whole after {@link #ACTOR_PREFIX}. */
    static final int MAX_USER = 128;
    /** Visible ASCII, spaces only inside: the audit trail's actor column is ASCII, and no CR/LF gets anywhere. */
    private static final Pattern USER = Pattern.compile("[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?");
    /** What a proxied user is called in the audit trail; no token name has a colon, so none can pass for one. */
    static final String ACTOR_PREFIX = "proxy:";

    /** What the proxy's header says about a request. */
    sealed interface Proxied permits Absent, User, Invalid {}

    /** No believed header: the peer is not a trusted proxy, no header is configured, or the proxy sent none. */
    record Absent() implements Proxied {}

    record User(String name) implements Proxied {
        /** The session's caller name, and so the audit trail's actor. */
        String actor() {
            return ACTOR_PREFIX + name;
        }
    }

    /** A trusted proxy sent a user name mailrun does not take; {@code why} says what was wrong. */
    record Invalid(String why) implements Proxied {}

    public ConsoleProxy {
        authHeader.ifPresent(h -> {
            if (!HEADER_NAME.matcher(h).matches()) {
                throw new IllegalArgumentException("not a header name: letters, digits and -, at most 64");
            }
            if (proxies.isEmpty() || proxyToken.isEmpty()) {
                throw new IllegalArgumentException("an authenticating proxy needs trusted proxies and a proxy token");
            }
        });
    }

    /** Whether the request's immediate peer is one of the trusted proxies. */
    boolean fromProxy(Request request) {
        SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
        if (proxies.isEmpty() || !(remote instanceof InetSocketAddress inet)) {
            return false;
        }
        InetAddress address = inet.getAddress();
        return address != null && proxies.trusts(address);
    }

    /**
     * Whether the browser reached us over https: the connection's own TLS, or a trusted proxy that
     * terminated it and says so with exactly one {@code X-Forwarded-Proto: https} (a list is a chain
     * whose first hop cannot be told apart from what a client wrote, so it is not believed).
     */
    boolean secure(Request request) {
        if (request.isSecure()) {
            return true;
        }
        if (!fromProxy(request)) {
            return false;
        }
        List<String> proto = request.getHeaders().getCSV("X-Forwarded-Proto", false);
        return proto.size() == 1 && proto.get(0).strip().equalsIgnoreCase("https");
    }

    /** The scheme the browser used: what its {@code Origin} names. */
    String scheme(Request request) {
        return secure(request) ? "https" : request.getHttpURI().getScheme();
    }

    /** The user a trusted proxy names, checked; {@link Absent} from any other peer. */
    Proxied user(Request request) {
        if (authHeader.isEmpty() || !fromProxy(request)) {
            return new Absent();
        }
        List<String> values = request.getHeaders().getValuesList(authHeader.get());
        if (values.isEmpty() || values.size() == 1 && values.get(0).isBlank()) {
            return new Absent();
        }
        if (values.size() > 1) {
            return new Invalid("the proxy sent " + authHeader.get() + " " + values.size() + " times");
        }
        String name = values.get(0).strip();
        if (name.length() > MAX_USER) {
            return new Invalid("the user name in " + authHeader.get() + " is over " + MAX_USER + " characters");
        }
        if (!USER.matcher(name).matches()) {
            return new Invalid("the user name in " + authHeader.get() + " holds characters other than printable ASCII");
        }
        return new User(name);
    }
}
