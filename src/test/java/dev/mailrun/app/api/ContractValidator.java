package dev.mailrun.app.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpHeaders;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks an API response against docs/api/openapi.yaml: the path and method are in the contract, the
 * status is one the operation declares, the content type is one declared for it, the declared
 * required headers are there, and the body validates against the declared schema — with
 * networknt's JSON Schema validator in its OpenAPI 3.1 dialect (an NDJSON body: each line against
 * the schema in {@code x-line-schema}).
 */
final class ContractValidator {

    static final Path DOCUMENT = Path.of("docs/api/openapi.yaml");
    private static final String BASE = "https://mailrun.dev/api/v1/openapi.json";
    private static final String PREFIX = "/api/v1";

    private final JsonNode contract;
    private final SchemaRegistry registry;

    ContractValidator(JsonNode contract) {
        this.contract = contract;
        String json = contract.toString();
        this.registry = SchemaRegistry.withDefaultDialect(Dialects.getOpenApi31(), b -> b.schemas(Map.of(BASE, json)));
    }

    static ContractValidator ofDocument() {
        return new ContractValidator(read(DOCUMENT));
    }

    static JsonNode read(Path yaml) {
        try {
            return new ObjectMapper(new YAMLFactory()).readTree(Files.readString(yaml));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every way the response departs from the contract; empty when it conforms. */
    List<String> check(String method, String requestPath, int status, HttpHeaders headers, String body) {
        List<String> problems = new ArrayList<>();
        String path = requestPath.split("\\?", 2)[0];
        if (!path.startsWith(PREFIX)) {
            return List.of("not an API path: " + path);
        }
        Optional<JsonNode> operation = operation(method.toLowerCase(), path.substring(PREFIX.length()));
        if (operation.isEmpty()) {
            return List.of(method + " " + path + " is not in the contract");
        }
        JsonNode response = resolve(operation.get().path("responses").path(Integer.toString(status)));
        if (response.isMissingNode()) {
            return List.of(method + " " + path + ": status " + status + " is not declared");
        }
        Iterator<Map.Entry<String, JsonNode>> declared = resolve(response.path("headers")).fields();
        while (declared.hasNext()) {
            Map.Entry<String, JsonNode> h = declared.next();
            if (resolve(h.getValue()).path("required").asBoolean(false) && headers.firstValue(h.getKey()).isEmpty()) {
                problems.add(status + ": required header " + h.getKey() + " is missing");
            }
        }
        JsonNode content = response.path("content");
        if (content.isMissingNode() || content.isEmpty()) {
            return problems;
        }
        String type = headers.firstValue("Content-Type").map(t -> t.split(";", 2)[0].strip()).orElse("");
        JsonNode media = content.path(type);
        if (media.isMissingNode()) {
            problems.add(status + ": content type '" + type + "' is not declared (declared: " + content.fieldNames().next() + ")");
            return problems;
        }
        if (type.equals("application/x-ndjson")) {
            String ref = media.path("x-line-schema").path("$ref").asText();
            for (String line : body.split("\n")) {
                if (!line.isBlank()) {
                    problems.addAll(validate(ref, line));
                }
            }
        } else if (type.endsWith("json")) {
            String ref = media.path("schema").path("$ref").asText();
            if (ref.isEmpty()) {
                problems.add(status + ": a JSON response's schema must be a $ref to components");
            } else {
                problems.addAll(validate(ref, body));
            }
        }
        return problems;
    }

    private List<String> validate(String ref, String json) {
        Schema schema = registry.getSchema(SchemaLocation.of(BASE + ref));
        return schema.validate(json, InputFormat.JSON).stream().map(e -> ref + ": " + e.toString()).toList();
    }

    private Optional<JsonNode> operation(String method, String path) {
        String[] segments = path.substring(1).split("/", -1);
        Iterator<Map.Entry<String, JsonNode>> paths = contract.path("paths").fields();
        Optional<JsonNode> templated = Optional.empty();
        while (paths.hasNext()) {
            Map.Entry<String, JsonNode> p = paths.next();
            String[] parts = p.getKey().substring(1).split("/", -1);
            if (parts.length != segments.length || !p.getValue().has(method)) {
                continue;
            }
            boolean literal = true;
            boolean matches = true;
            for (int i = 0; i < parts.length && matches; i++) {
                if (parts[i].startsWith("{")) {
                    literal = false;
                } else {
                    matches = parts[i].equals(segments[i]);
                }
            }
            if (matches && literal) {
                return Optional.of(p.getValue().path(method));
            }
            if (matches && templated.isEmpty()) {
                templated = Optional.of(p.getValue().path(method));
            }
        }
        return templated;
    }

    /** A node, or what its $ref (within this document) points to. */
    private JsonNode resolve(JsonNode node) {
        JsonNode n = node;
        while (n.has("$ref")) {
            n = contract.at(n.path("$ref").asText().substring(1));
        }
        return n;
    }
}
