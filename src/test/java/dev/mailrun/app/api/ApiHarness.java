package dev.mailrun.app.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.app.AppContext;
import dev.mailrun.app.HttpEndpoint;
import dev.mailrun.app.ProductionLinks;
import dev.mailrun.app.Services;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.testing.JsonNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The worker's HTTP endpoint with the API, started from configuration as {@code mailrun worker}
 * starts it, and a client for it. Every answer the client gets is checked against the contract
 * (docs/api/openapi.yaml) before the test sees it.
 */
final class ApiHarness implements AutoCloseable {

    static final String ADMIN_TOKEN = "admin-token-for-tests-0123456789";
    static final ObjectMapper JSON = new ObjectMapper();
    private static final ContractValidator CONTRACT = ContractValidator.ofDocument();

    final AppContext ctx;
    final Services services;
    final HttpEndpoint endpoint;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    ApiHarness(Map<String, String> env, Clock clock) throws IOException {
        env.put("MAILRUN_HTTP_PORT", Integer.toString(freePort()));
        env.put("MAILRUN_ADMIN_PORT", Integer.toString(freePort()));
        env.putIfAbsent("MAILRUN_ADMIN_TOKEN", ADMIN_TOKEN);
        this.ctx = AppContext.load(Optional.empty(), env, clock);
        this.services = new Services(ctx, ProductionLinks::of);
        this.endpoint = HttpEndpoint.start(services, true);
    }

    int adminPort() {
        return endpoint.adminPort().orElseThrow();
    }

    int publicPort() {
        return endpoint.port().orElseThrow();
    }

    /** A new API token with these scopes. */
    String token(String name, ApiScope... scopes) {
        try {
            return services.apiTokens().create(name, Set.of(scopes));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** One request to the admin listener, its answer checked against the contract. */
    HttpResponse<String> call(String token, String method, String path, String contentType, String body, String... headers) {
        HttpResponse<String> r = send(adminPort(), token, method, path, contentType,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body), headers);
        conforms(method, path, r);
        return r;
    }

    HttpResponse<String> get(String token, String path) {
        return call(token, "GET", path, null, null);
    }

    HttpResponse<String> post(String token, String path, String json, String... headers) {
        return call(token, "POST", path, json == null ? null : "application/json", json, headers);
    }

    /**
     * The status line's code for a POST that declares a {@code length}-byte body and sends none of it: the server must
     * refuse on the declared length alone. A real client sending the whole oversized body races the server's close
     * (the refusal can reach it as a reset), so the refusal is checked where it is decided, before the body.
     */
    int statusOfDeclaredLength(String token, String path, String contentType, long length) {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", adminPort())) {
            s.setSoTimeout(30_000);
            String head = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                    + "\r\nContent-Type: " + contentType + "\r\nContent-Length: " + length + "\r\n\r\n";
            s.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            String status = new java.io.BufferedReader(new java.io.InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1))
                    .readLine();
            assertThat(status).as("status line").startsWith("HTTP/1.1 ");
            return Integer.parseInt(status.substring(9, 12));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    HttpResponse<String> upload(String token, String path, Path csv, String... headers) {
        HttpResponse<String> r;
        try {
            r = send(adminPort(), token, "POST", path, "text/csv", HttpRequest.BodyPublishers.ofFile(csv), headers);
        } catch (java.io.FileNotFoundException e) {
            throw new UncheckedIOException(e);
        }
        conforms("POST", path, r);
        return r;
    }

    HttpResponse<String> send(int port, String token, String method, String path, String contentType,
                              HttpRequest.BodyPublisher body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60)).method(method, body);
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static void conforms(String method, String path, HttpResponse<String> r) {
        assertThat(CONTRACT.check(method, path, r.statusCode(), r.headers(), r.body()))
                .as(method + " " + path + " → " + r.statusCode() + " " + r.body()).isEmpty();
        assertThat(names(path, r)).as("member names and ids of " + method + " " + path + " → " + r.body()).isEmpty();
    }

    /** Every JSON document the API answers (each line of NDJSON) follows {@link JsonNames}; the contract itself is OpenAPI's. */
    private static List<String> names(String path, HttpResponse<String> r) {
        String type = r.headers().firstValue("Content-Type").orElse("");
        if (path.startsWith("/api/v1/openapi.json") || !type.contains("json")) {
            return List.of();
        }
        List<String> problems = new ArrayList<>();
        for (String line : type.contains("ndjson") ? r.body().split("\n") : new String[] {r.body()}) {
            if (!line.isBlank()) {
                try {
                    problems.addAll(JsonNames.problems(JSON.readTree(line)));
                } catch (IOException e) {
                    problems.add("not JSON: " + e.getMessage());
                }
            }
        }
        return problems;
    }

    static JsonNode json(HttpResponse<String> r) {
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        endpoint.close();
        services.close();
        ctx.close();
    }
}
