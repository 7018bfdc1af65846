package dev.mailrun.http.api;

import dev.mailrun.campaign.access.ApiTokens;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One API request as an endpoint sees it: the path's variables, the query, the caller and the body
 * (JSON bytes, or an upload in a temporary file with its media type).
 */
record ApiRequest(String method, Map<String, String> vars, Map<String, List<String>> query, ApiTokens.Caller caller,
                  Optional<String> ifMatch, byte[] body, Optional<Path> upload, Optional<String> uploadType) {

    ApiRequest(String method, Map<String, String> vars, Map<String, List<String>> query, ApiTokens.Caller caller,
               Optional<String> ifMatch, byte[] body, Optional<Path> upload) {
        this(method, vars, query, caller, ifMatch, body, upload, upload.map(u -> "text/csv"));
    }

    /** A path variable (always present: the route matched it). */
    String var(String name) {
        return vars.get(name);
    }

    /** A query parameter given at most once; a repeated one is a 400. */
    Optional<String> param(String name) {
        List<String> values = query.getOrDefault(name, List.of());
        if (values.size() > 1) {
            throw ApiException.invalid(name, "given more than once");
        }
        return values.stream().findFirst();
    }

    /** A path variable that is an id: digits only, as the API writes ids. */
    long id(String name) {
        String v = var(name);
        if (!v.matches("[1-9][0-9]{0,17}")) {
            throw ApiException.notFound("no " + name + " '" + Shown.of(v) + "'");
        }
        return Long.parseLong(v);
    }

    /** A whole-number query parameter within a range; the default when absent. */
    int intParam(String name, int min, int max, int otherwise) {
        Optional<String> v = param(name);
        if (v.isEmpty()) {
            return otherwise;
        }
        if (!v.get().matches("[0-9]{1,9}")) {
            throw ApiException.invalid(name, "must be a whole number " + min + "-" + max);
        }
        int n = Integer.parseInt(v.get());
        if (n < min || n > max) {
            throw ApiException.invalid(name, "must be " + min + "-" + max + ", got " + n);
        }
        return n;
    }

    <T> T json(Class<T> type) {
        return Json.read(body, type);
    }
}
