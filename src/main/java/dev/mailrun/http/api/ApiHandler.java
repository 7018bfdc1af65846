package dev.mailrun.http.api;

import dev.mailrun.campaign.access.ApiTokens;
import dev.mailrun.campaign.access.IdempotencyKeys;
import dev.mailrun.http.server.BodyReader;
import dev.mailrun.http.server.ByteSize;
import dev.mailrun.http.server.HttpLimits;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.URIUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /api/v1/*} on the admin listener. Every request, in this order:
 *
 * <ol>
 *   <li>authenticated ({@link Authenticator}: an API token, or admin.token as {@code admin}); none: 401;</li>
 *   <li>matched to an {@link Operation} (no path: 404, another method: 405) and its scope checked (403 naming it);</li>
 *   <li>its query parameters checked against the operation's (another: 422 naming it);</li>
 *   <li>rate-limited per token ({@link RateLimits}: 429 with Retry-After);</li>
 *   <li>its body read — JSON whole up to {@code api.max-body-bytes}, CSV streamed to a temporary file up
 *       to {@code api.max-upload-bytes} (413 past either);</li>
 *   <li>with an Idempotency-Key (POST), claimed in {@link IdempotencyKeys}: a repeat gets the first answer;</li>
 *   <li>handed to the endpoint, whose answer (or problem) is sent; writes are recorded in the audit trail.</li>
 * </ol>
 *
 * The endpoints only translate: every decision is the operator's API's in {@code campaign}.
 */
public final class ApiHandler extends Handler.Abstract {

    static final String PREFIX = "/api/v1";
    private static final Logger log = LoggerFactory.getLogger(ApiHandler.class);
    private static final int MAX_KEY = 128;
    /** The other media type an upload ({@link Operation.Body#UPLOAD}) may have: one JSON object a line. */
    static final String UPLOAD_NDJSON = "application/x-ndjson";

    private final ApiServices services;
    private final HttpLimits limits;
    private final Authenticator authenticator;
    private final RateLimits rates;
    private final List<Operation> operations;
    private final OperationRunner runner;
    private final AuthFailures authFailures;

    public ApiHandler(ApiServices services, HttpLimits limits) {
        this.services = services;
        this.limits = limits;
        this.authenticator = new Authenticator(services.tokens(), services.adminToken());
        this.rates = new RateLimits(services.settings(), services.clock());
        List<Operation> ops = new ArrayList<>();
        ops.addAll(new ContractApi().operations());
        ops.addAll(new TemplatesApi(services).operations());
        ops.addAll(new CampaignsApi(services).operations());
        ops.addAll(new CampaignContentApi(services).operations());
        ops.addAll(new TestSendApi(services).operations());
        ops.addAll(new RecipientsApi(services).operations());
        ops.addAll(new SuppressionsApi(services).operations());
        ops.addAll(new SubscriberEraseApi(services).operations());
        ops.addAll(new EventsApi(services).operations());
        ops.addAll(new SubscribersApi(services).operations());
        ops.addAll(new ListsApi(services).operations());
        ops.addAll(new SegmentsApi(services).operations());
        this.operations = List.copyOf(ops);
        this.runner = new OperationRunner(services);
        this.authFailures = new AuthFailures(services.audit(), services.clock());
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        if (path == null || !(path.equals(PREFIX) || path.startsWith(PREFIX + "/"))) {
            return false;
        }
        try {
            route(request, response, callback, path.substring(PREFIX.length()));
        } catch (ApiException e) {
            Answers.send(request, response, callback, Problems.of(e));
        } catch (Exception e) {
            log.error("API {} {} failed", request.getMethod(), path, e);
            Answers.send(request, response, callback, Problems.of(new ApiException(500, "Server error", "the request failed; see the worker's log")));
        }
        return true;
    }

    private void route(Request request, Response response, Callback callback, String path) throws Exception {
        Optional<ApiTokens.Caller> caller = authenticator.authenticate(request.getHeaders().get(HttpHeader.AUTHORIZATION));
        if (caller.isEmpty()) {
            log.warn("API: refused (401) {} {} from {}: no valid token", request.getMethod(), path, Request.getRemoteAddr(request));
            authFailures.refused(Request.getRemoteAddr(request), request.getMethod(), path);
            throw new ApiException(401, "Unauthenticated", "send Authorization: Bearer <API token>", List.of(),
                    Map.of("WWW-Authenticate", "Bearer realm=\"mailrun api\""));
        }
        String[] segments = segments(path);
        Set<String> allowed = new LinkedHashSet<>();
        for (Operation op : operations) {
            Optional<Map<String, String>> vars = op.match(segments);
            if (vars.isEmpty()) {
                continue;
            }
            if (!op.method().equals(request.getMethod())) {
                allowed.add(op.method());
                continue;
            }
            authorised(request, response, callback, op, vars.get(), caller.get(), path);
            return;
        }
        if (!allowed.isEmpty()) {
            throw new ApiException(405, "Method not allowed", "use " + String.join(" or ", allowed), List.of(),
                    Map.of("Allow", String.join(", ", allowed)));
        }
        throw ApiException.notFound("no API resource at " + Shown.of(PREFIX + path));
    }

    private void authorised(Request request, Response response, Callback callback, Operation op, Map<String, String> vars,
                            ApiTokens.Caller caller, String path) throws Exception {
        if (!op.allowedWith(caller.scopes())) {
            ApiException refused = new ApiException(403, "Forbidden", "this needs the scope " + op.scope().text(), List.of(), Map.of());
            runner.audit(op, caller, path, refused.status(), Optional.of(refused.getMessage()));
            throw refused;
        }
        Duration wait = rates.take(caller.name());
        if (!wait.isZero()) {
            long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
            throw new ApiException(429, "Too many requests", "over api.rate for this token; retry in " + seconds + " s", List.of(),
                    Map.of("Retry-After", Long.toString(seconds)));
        }
        Optional<String> key = idempotencyKey(request, op);
        Map<String, List<String>> query = query(request);
        for (String name : query.keySet()) {
            if (!op.query().contains(name)) {
                String snake = FieldNames.json(name);
                throw ApiException.invalid(Shown.of(name), op.query().contains(snake)
                        ? "unknown query parameter; the API's names are snake_case: " + snake : "unknown query parameter");
            }
        }
        Optional<String> ifMatch = Optional.ofNullable(request.getHeaders().get(HttpHeader.IF_MATCH));
        String target = request.getHttpURI().getPathQuery();
        switch (op.body()) {
            case NONE -> runner.run(request, response, callback, op, new ApiRequest(op.method(), vars, query, caller, ifMatch,
                    new byte[0], Optional.empty()), key, OperationRunner.hash(op.method(), target, new byte[0]));
            case JSON -> {
                requireType(request, "application/json");
                BodyReader.collect(request, services.settings().maxBodyBytes(), limits.bodyTimeout(), (outcome, body, failure) -> {
                    switch (outcome) {
                        case COMPLETE -> runner.run(request, response, callback, op, new ApiRequest(op.method(), vars, query, caller,
                                ifMatch, body, Optional.empty()), key, OperationRunner.hash(op.method(), target, body));
                        case TOO_LARGE -> refuseBody(request, response, callback, op, caller, path, 413, "Too large",
                                "the body is over api.max-body-bytes (" + ByteSize.of(services.settings().maxBodyBytes()) + ")");
                        case TIMED_OUT -> refuseBody(request, response, callback, op, caller, path, 408, "Request timeout",
                                "the body was not complete within " + limits.bodyTimeout().toSeconds() + " s");
                        case BROKEN -> callback.failed(failure);
                    }
                });
            }
            case CSV, UPLOAD -> {
                String type = op.body() == Operation.Body.CSV ? requireType(request, "text/csv")
                        : requireType(request, "text/csv", UPLOAD_NDJSON);
                UploadReader.read(request, services.settings().maxUploadBytes(), (outcome, file, sha256, failure) -> {
                    switch (outcome) {
                        case COMPLETE -> {
                            try {
                                runner.run(request, response, callback, op, new ApiRequest(op.method(), vars, query, caller, ifMatch,
                                        new byte[0], Optional.of(file), Optional.of(type)), key,
                                        OperationRunner.hash(op.method(),
                                        op.body() == Operation.Body.UPLOAD ? target + " " + type : target, sha256));
                            } finally {
                                deleteQuietly(file);
                            }
                        }
                        case TOO_LARGE -> refuseBody(request, response, callback, op, caller, path, 413, "Too large",
                                "the upload is over api.max-upload-bytes (" + ByteSize.of(services.settings().maxUploadBytes()) + ")");
                        case TIMED_OUT -> refuseBody(request, response, callback, op, caller, path, 408, "Request timeout",
                                "the upload stalled past the connection's idle timeout");
                        case BROKEN -> callback.failed(failure);
                    }
                });
            }
        }
    }

    private void refuseBody(Request request, Response response, Callback callback, Operation op, ApiTokens.Caller caller,
                            String path, int status, String title, String detail) {
        runner.audit(op, caller, path, status, Optional.of(detail));
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE);
        Answers.send(request, response, callback, Problems.of(new ApiException(status, title, detail)));
    }

    private Optional<String> idempotencyKey(Request request, Operation op) {
        String key = request.getHeaders().get("Idempotency-Key");
        if (key == null) {
            return Optional.empty();
        }
        if (!"POST".equals(op.method())) {
            throw ApiException.badRequest("Idempotency-Key is taken on POST only");
        }
        if (key.isEmpty() || key.length() > MAX_KEY || !key.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw ApiException.invalid("Idempotency-Key", "must be 1-" + MAX_KEY + " visible ASCII characters");
        }
        return Optional.of(key);
    }

    /** The body's media type when it is one of {@code types} (lower-cased, without parameters); 415 otherwise. */
    private static String requireType(Request request, String... types) {
        String given = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        String bare = given == null ? "" : given.split(";", 2)[0].strip();
        for (String type : types) {
            if (bare.equalsIgnoreCase(type)) {
                return type;
            }
        }
        throw new ApiException(415, "Unsupported media type", "send the body as " + String.join(" or ", types)
                + (given == null ? "" : ", not " + Shown.of(given)));
    }

    private static String[] segments(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        String[] raw = p.split("/", -1);
        String[] decoded = new String[raw.length];
        for (int i = 0; i < raw.length; i++) {
            decoded[i] = URIUtil.decodePath(raw[i]);
        }
        return decoded;
    }

    private static Map<String, List<String>> query(Request request) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        Fields fields = Request.extractQueryParameters(request, StandardCharsets.UTF_8);
        for (Fields.Field f : fields) {
            query.put(f.getName(), f.getValues());
        }
        return query;
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (Exception ignored) {
            // a temporary file: the system cleans it up
        }
    }
}
