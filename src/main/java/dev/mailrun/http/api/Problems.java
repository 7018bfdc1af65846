package dev.mailrun.http.api;

import dev.mailrun.campaign.model.InvalidFields;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** RFC 9457 problem details: type, title, status, detail, and for bad fields the list of fields and reasons. */
final class Problems {

    static final String TYPE_BASE = "https://mailrun.dev/problems/";

    private Problems() {}

    static ApiResponse of(ApiException e) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", TYPE_BASE + type(e.status()));
        p.put("title", e.title());
        p.put("status", e.status());
        p.put("detail", e.getMessage());
        List<InvalidFields.Problem> fields = e.fields();
        if (!fields.isEmpty()) {
            p.put("errors", fields.stream().map(f -> Map.of("field", f.field(), "reason", f.reason())).toList());
        }
        ApiResponse r = ApiResponse.raw(e.status(), ApiResponse.PROBLEM, Json.bytes(p));
        e.headers().forEach(r::header);
        return r;
    }

    private static String type(int status) {
        return switch (status) {
            case 400 -> "bad-request";
            case 401 -> "unauthenticated";
            case 403 -> "forbidden";
            case 404 -> "not-found";
            case 405 -> "method-not-allowed";
            case 409 -> "conflict";
            case 412 -> "precondition-failed";
            case 413 -> "too-large";
            case 415 -> "unsupported-media-type";
            case 422 -> "invalid";
            case 428 -> "precondition-required";
            case 429 -> "rate-limited";
            default -> status >= 500 ? "server-error" : "error";
        };
    }
}
