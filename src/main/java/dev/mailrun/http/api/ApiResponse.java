package dev.mailrun.http.api;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** What an endpoint answers: a status, headers and either a whole body or one written as it streams. */
final class ApiResponse {

    static final String JSON = "application/json";
    static final String PROBLEM = "application/problem+json";

    /** Writes a body that is too large to hold (an export), row by row. */
    @FunctionalInterface
    interface Streamer {
        void write(OutputStream out) throws Exception;
    }

    private final int status;
    private final String contentType;
    private final byte[] body;
    private final Streamer streamer;
    private final Map<String, String> headers = new LinkedHashMap<>();

    private ApiResponse(int status, String contentType, byte[] body, Streamer streamer) {
        this.status = status;
        this.contentType = contentType;
        this.body = body;
        this.streamer = streamer;
    }

    static ApiResponse json(int status, Object value) {
        return new ApiResponse(status, JSON, Json.bytes(value), null);
    }

    static ApiResponse raw(int status, String contentType, byte[] body) {
        return new ApiResponse(status, contentType, body, null);
    }

    static ApiResponse rawJson(int status, String json) {
        return new ApiResponse(status, JSON, json.getBytes(StandardCharsets.UTF_8), null);
    }

    static ApiResponse stream(String contentType, Streamer streamer) {
        return new ApiResponse(200, contentType, null, streamer);
    }

    ApiResponse header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    int status() {
        return status;
    }

    String contentType() {
        return contentType;
    }

    /** The whole body; null for a streamed one. */
    byte[] body() {
        return body;
    }

    boolean streamed() {
        return streamer != null;
    }

    void writeTo(OutputStream out) throws Exception {
        streamer.write(out);
    }

    Map<String, String> headers() {
        return headers;
    }

}
