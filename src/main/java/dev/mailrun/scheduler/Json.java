package dev.mailrun.scheduler;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.UncheckedIOException;

/** The one JSON mapper of the scheduler: instants as ISO-8601 strings. */
final class Json {

    static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .build();

    private Json() {}

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static ObjectNode parseObject(String text) {
        if (text == null) {
            return null;
        }
        try {
            JsonNode node = MAPPER.readTree(text);
            if (!(node instanceof ObjectNode object)) {
                throw new IllegalStateException("expected a JSON object but found: " + abbreviate(text));
            }
            return object;
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("unreadable JSON in the task table: " + abbreviate(text), e);
        }
    }

    static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("could not write JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }
}
