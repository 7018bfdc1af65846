package dev.mailrun.http.endpoint;

import dev.mailrun.campaign.audience.signup.SignupGuard;
import dev.mailrun.http.server.PublicPage;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /altcha/challenge}: a new proof-of-work challenge as JSON, for a sign-up form on the
 * operator's own site (ALTCHA's widget reads it from its {@code challengeurl}). Any site may fetch one:
 * a challenge says nothing and is worth nothing until solved, and each solution is taken once.
 */
final class ChallengeHandler extends Handler.Abstract {

    static final String PATH = "/altcha/challenge";

    private final SignupGuard guard;
    private final PublicPage shell;

    ChallengeHandler(SignupGuard guard, PublicPage shell) {
        this.guard = guard;
        this.shell = shell;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!PATH.equals(request.getHttpURI().getPath()) || !guard.asksProofOfWork()) {
            shell.sendError(request, response, callback, HttpStatus.NOT_FOUND_404);
            return true;
        }
        String method = request.getMethod();
        if (!HttpMethod.GET.is(method) && !HttpMethod.HEAD.is(method)) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            shell.sendError(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405);
            return true;
        }
        byte[] bytes = guard.challenge().orElseThrow().getBytes(StandardCharsets.UTF_8);
        response.setStatus(HttpStatus.OK_200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.getHeaders().put(HttpHeader.ACCESS_CONTROL_ALLOW_ORIGIN, "*");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
        response.write(true, HttpMethod.HEAD.is(method) ? ByteBuffer.allocate(0) : ByteBuffer.wrap(bytes), callback);
        return true;
    }
}
