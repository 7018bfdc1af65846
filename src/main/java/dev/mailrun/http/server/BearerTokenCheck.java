package dev.mailrun.http.server;

import dev.mailrun.mail.Secret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Lets a request through only with {@code Authorization: Bearer <token>}; otherwise 401. The token is
 * compared as SHA-256 digests in constant time, so neither its length nor a matching prefix shows in
 * the answer's timing, and it never appears in a log or a response. On a route that also opens in a
 * browser, a request its {@link SessionCheck} admits passes too.
 */
final class BearerTokenCheck extends Handler.Wrapper {

    private static final String SCHEME = "Bearer ";

    private final byte[] expected;
    private final Optional<SessionCheck> sessions;

    BearerTokenCheck(Secret token, Optional<SessionCheck> sessions, Handler handler) {
        super(handler);
        this.expected = sha256(token.reveal());
        this.sessions = sessions;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String authorization = request.getHeaders().get(HttpHeader.AUTHORIZATION);
        if (authorization != null && authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())
                && MessageDigest.isEqual(expected, sha256(authorization.substring(SCHEME.length()).strip()))) {
            return super.handle(request, response, callback);
        }
        if (sessions.isPresent() && sessions.get().admits(request)) {
            return super.handle(request, response, callback);
        }
        response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer realm=\"mailrun admin\"");
        TextResponse.send(response, callback, HttpStatus.UNAUTHORIZED_401, TextResponse.PLAIN,
                "401 unauthorized: send Authorization: Bearer <admin.token>\n");
        return true;
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
