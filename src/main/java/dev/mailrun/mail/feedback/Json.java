package dev.mailrun.mail.feedback;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.Optional;

/** Reading webhook bodies: strict JSON (a repeated key is an error), small nesting, plain text accessors. */
final class Json {

    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(32).build())
                    .build())
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();

    private Json() {}

    /** The parsed document, or empty when the bytes are not one JSON value. */
    static Optional<JsonNode> parse(byte[] body) {
        try {
            JsonNode node = MAPPER.readTree(body);
            return node == null || node.isMissingNode() ? Optional.empty() : Optional.of(node);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static Optional<JsonNode> parse(String text) {
        try {
            JsonNode node = MAPPER.readTree(text);
            return node == null || node.isMissingNode() ? Optional.empty() : Optional.of(node);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** A string field's value; empty when it is missing, null or not a string. */
    static Optional<String> text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v != null && v.isTextual() ? Optional.of(v.asText()) : Optional.empty();
    }

    /** A string or number field as text (providers send some ids and codes either way). */
    static Optional<String> scalar(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v != null && (v.isTextual() || v.isNumber()) ? Optional.of(v.asText()) : Optional.empty();
    }

    static String textOr(JsonNode node, String field, String otherwise) {
        return text(node, field).orElse(otherwise);
    }

    static JsonNode object(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v != null && v.isObject() ? v : null;
    }
}
