package dev.mailrun.http.api;

import dev.mailrun.campaign.access.ApiTokens;
import dev.mailrun.campaign.access.IdempotencyKeys;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an operation whose request has arrived whole: once per idempotency key (a repeat gets the
 * stored answer), its exceptions turned into problems ({@link Failures}), a write recorded in the
 * audit trail, and the answer sent.
 */
final class OperationRunner {

    private static final Logger log = LoggerFactory.getLogger(OperationRunner.class);
    private static final String KEY_REUSED = "Idempotency key reused";

    private final ApiServices services;

    OperationRunner(ApiServices services) {
        this.services = services;
    }

    /** Runs the endpoint (once per idempotency key), records a write in the audit trail, and answers. */
    void run(Request request, Response response, Callback callback, Operation op, ApiRequest apiRequest,
                          Optional<String> key, byte[] requestHash) {
        String caller = apiRequest.caller().name();
        String path = request.getHttpURI().getPath().substring(ApiHandler.PREFIX.length());
        ApiResponse answer;
        try {
            if (key.isPresent()) {
                IdempotencyKeys.Claim claim = services.idempotency().claim(caller, key.get(), requestHash);
                if (claim instanceof IdempotencyKeys.Replay replay) {
                    ApiResponse again = ApiResponse.raw(replay.status(), replay.contentType(), replay.body());
                    replay.headers().forEach(again::header);
                    Answers.send(request, response, callback, again.header("Idempotent-Replayed", "true"));
                    return;
                }
                if (claim instanceof IdempotencyKeys.InProgress) {
                    throw new ApiException(409, "Conflict", "a request with this Idempotency-Key is still under way; retry shortly",
                            List.of(), Map.of("Retry-After", "1"));
                }
                if (claim instanceof IdempotencyKeys.Mismatch) {
                    throw new ApiException(422, KEY_REUSED, "this Idempotency-Key was used with another request");
                }
            }
            answer = execute(op, apiRequest);
        } catch (ApiException e) {
            answer = Problems.of(e);
        } catch (Exception e) {
            log.error("API {} {}: the idempotency key could not be claimed", op.method(), path, e);
            Answers.send(request, response, callback, Problems.of(new ApiException(500, "Server error", "the request failed; see the worker's log")));
            return;
        }
        if (key.isPresent() && !answer.streamed() && !(answer.status() == 409 && answer.headers().containsKey("Retry-After"))
                && !(answer.status() == 422 && KEY_REUSED.equals(problemTitle(answer)))) {
            try {
                if (answer.status() >= 500) {
                    services.idempotency().release(caller, key.get());
                } else {
                    services.idempotency().complete(caller, key.get(), answer.status(), answer.contentType(), answer.headers(), answer.body());
                }
            } catch (Exception e) {
                log.error("API: the answer to idempotency key of {} could not be stored", caller, e);
            }
        }
        audit(op, apiRequest.caller(), path, answer.status(), detail(answer));
        Answers.send(request, response, callback, answer);
    }

    private ApiResponse execute(Operation op, ApiRequest apiRequest) {
        try {
            return op.endpoint().handle(apiRequest);
        } catch (ApiException e) {
            return Problems.of(e);
        } catch (Exception e) {
            ApiException mapped = Failures.map(e);
            if (mapped.status() >= 500) {
                log.error("API {} {} failed", op.method(), op.template(), e);
            }
            return Problems.of(mapped);
        }
    }

    void audit(Operation op, ApiTokens.Caller caller, String path, int status, Optional<String> detail) {
        if (op.audited().isEmpty()) {
            return;
        }
        try {
            services.audit().record(caller.name(), op.audited().get(), ApiHandler.PREFIX + path, status, detail);
        } catch (Exception e) {
            log.error("API: the audit entry of {} {} by {} could not be written", op.method(), path, caller.name(), e);
        }
    }

    private static Optional<String> detail(ApiResponse answer) {
        if (!ApiResponse.PROBLEM.equals(answer.contentType())) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(Json.MAPPER.readTree(answer.body()).path("detail").asText(null));
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    private static String problemTitle(ApiResponse answer) {
        try {
            return ApiResponse.PROBLEM.equals(answer.contentType()) ? Json.MAPPER.readTree(answer.body()).path("title").asText() : "";
        } catch (Exception e) {
            return "";
        }
    }

    static byte[] hash(String method, String target, byte[] bodyOrItsHash) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update((method + " " + target + "\n").getBytes(StandardCharsets.UTF_8));
            d.update(bodyOrItsHash);
            return d.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

}
