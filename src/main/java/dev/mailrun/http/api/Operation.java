package dev.mailrun.http.api;

import dev.mailrun.campaign.model.ApiScope;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One operation of the API: method, path template ({@code /campaigns/{id}/start}), the scope it
 * needs (null: any valid token), what its body is, the name the audit trail gives it (writes only), the
 * query parameters it reads (any other is refused, so that a misspelt filter is not silently ignored) and
 * the endpoint.
 */
record Operation(String method, String template, ApiScope scope, Body body, Optional<String> audited, Set<String> query,
                 Endpoint endpoint) {

    /** What a request carries: UPLOAD is streamed to a file as CSV is, in CSV or NDJSON ({@link ApiRequest#uploadType()}). */
    enum Body { NONE, JSON, CSV, UPLOAD }

    @FunctionalInterface
    interface Endpoint {
        ApiResponse handle(ApiRequest request) throws Exception;
    }

    static Operation read(String template, ApiScope scope, Endpoint endpoint) {
        return new Operation("GET", template, scope, Body.NONE, Optional.empty(), Set.of(), endpoint);
    }

    /** A read any valid token may make (scope null). */
    static Operation anyToken(String template, Endpoint endpoint) {
        return new Operation("GET", template, null, Body.NONE, Optional.empty(), Set.of(), endpoint);
    }

    /** This operation, reading the query parameters {@code names}. */
    Operation query(String... names) {
        return new Operation(method, template, scope, body, audited, Set.of(names), endpoint);
    }

    /** Whether a caller holding {@code held} may run this operation. */
    boolean allowedWith(Set<ApiScope> held) {
        return scope == null || scope.grantedBy(held);
    }

    static Operation write(String method, String template, ApiScope scope, Body body, String action, Endpoint endpoint) {
        return new Operation(method, template, scope, body, Optional.of(action), Set.of(), endpoint);
    }

    /** The path's variables when {@code path} (below /api/v1) matches the template; empty otherwise. */
    Optional<Map<String, String>> match(String[] segments) {
        String[] parts = template.substring(1).split("/", -1);
        if (parts.length != segments.length) {
            return Optional.empty();
        }
        Map<String, String> vars = new LinkedHashMap<>();
        for (int i = 0; i < parts.length; i++) {
            if (parts[i].startsWith("{")) {
                if (segments[i].isEmpty()) {
                    return Optional.empty();
                }
                vars.put(parts[i].substring(1, parts[i].length() - 1), segments[i]);
            } else if (!parts[i].equals(segments[i])) {
                return Optional.empty();
            }
        }
        return Optional.of(vars);
    }
}
