package dev.mailrun.http.api;

import dev.mailrun.campaign.model.InvalidFields;
import java.util.List;
import java.util.Map;

/** An answer other than success, as an RFC 9457 problem: thrown by an endpoint, written by {@link ApiHandler}. */
final class ApiException extends RuntimeException {

    private final int status;
    private final String title;
    private final List<InvalidFields.Problem> fields;
    private final Map<String, String> headers;

    ApiException(int status, String title, String detail) {
        this(status, title, detail, List.of(), Map.of());
    }

    ApiException(int status, String title, String detail, List<InvalidFields.Problem> fields, Map<String, String> headers) {
        super(detail);
        this.status = status;
        this.title = title;
        this.fields = List.copyOf(fields);
        this.headers = Map.copyOf(headers);
    }

    static ApiException badRequest(String detail) {
        return new ApiException(400, "Bad request", detail);
    }

    static ApiException invalid(List<InvalidFields.Problem> fields) {
        return new ApiException(422, "Invalid fields", fields.size() == 1 ? fields.get(0).field() + ": " + fields.get(0).reason()
                : fields.size() + " fields are invalid", fields, Map.of());
    }

    static ApiException invalid(String field, String reason) {
        return invalid(List.of(new InvalidFields.Problem(field, reason)));
    }

    static ApiException notFound(String detail) {
        return new ApiException(404, "Not found", detail);
    }

    static ApiException conflict(String detail) {
        return new ApiException(409, "Conflict", detail);
    }

    int status() {
        return status;
    }

    String title() {
        return title;
    }

    List<InvalidFields.Problem> fields() {
        return fields;
    }

    Map<String, String> headers() {
        return headers;
    }
}
