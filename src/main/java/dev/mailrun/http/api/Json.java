package dev.mailrun.http.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.mailrun.campaign.model.InvalidFields;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The API's JSON: strict on the way in (unknown fields, duplicate keys, trailing content, a string
 * where a number belongs and the like are refused, each naming the field), plain on the way out.
 * Every member name is snake_case, in and out: a request record's {@code fromName} is read from
 * {@code from_name} (the naming strategy renames record properties only; the answers' maps are built
 * with snake_case keys).
 */
final class Json {

    static final ObjectMapper MAPPER = strict();

    private Json() {}

    private static ObjectMapper strict() {
        JsonMapper mapper = JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES,
                        DeserializationFeature.FAIL_ON_TRAILING_TOKENS, DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .build();
        // "12" is not a number and 12 is not a string: a client sending either has a bug worth hearing about.
        mapper.coercionConfigFor(LogicalType.Textual).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail).setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Float).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
        return mapper;
    }

    /** The body as {@code type}; a body that is not that JSON is a 400 naming the field. */
    static <T> T read(byte[] body, Class<T> type) {
        if (body.length == 0) {
            throw ApiException.badRequest("a JSON body is required");
        }
        try {
            T value = MAPPER.readValue(body, type);
            if (value == null) {
                throw ApiException.badRequest("the body must be a JSON object, not null");
            }
            return value;
        } catch (UnrecognizedPropertyException e) {
            // 422 naming the member: a client still sending a name the API no longer reads (fromName for
            // from_name) learns which name to send instead of losing the value.
            throw ApiException.invalid(path(e), unknown(e));
        } catch (JsonMappingException e) {
            throw new ApiException(400, "Bad request", path(e) + ": " + firstLine(e.getOriginalMessage()),
                    List.of(new InvalidFields.Problem(path(e), "wrong type or value")), Map.of());
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("malformed JSON: " + firstLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw ApiException.badRequest("the body could not be read: " + e.getMessage());
        }
    }

    static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an answer could not be written as JSON", e);
        }
    }

    /** "unknown field", and the name meant when the unknown one is a known name in camelCase. */
    private static String unknown(UnrecognizedPropertyException e) {
        String snake = FieldNames.json(e.getPropertyName());
        return e.getKnownPropertyIds().contains(snake) ? "unknown field; the API's names are snake_case: " + snake : "unknown field";
    }

    private static String path(JsonMappingException e) {
        String p = e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
        return p.isEmpty() ? "body" : p;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }

}
