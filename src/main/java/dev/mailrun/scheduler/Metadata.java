package dev.mailrun.scheduler;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A task's metadata: a JSON object kept in {@code task.metadata}, handed to each run and saved by
 * its checkpoints. Mutable, not thread-safe: it belongs to the run's thread. Instants are stored as
 * ISO-8601 strings.
 */
public final class Metadata {

    private final ObjectNode json;

    private Metadata(ObjectNode json) {
        this.json = Objects.requireNonNull(json, "json");
    }

    public static Metadata empty() {
        return new Metadata(Json.object());
    }

    /** Wraps (does not copy) the given object. */
    public static Metadata of(ObjectNode json) {
        return new Metadata(json);
    }

    static Metadata parse(String text) {
        return new Metadata(Json.parseObject(text));
    }

    /** The live JSON object, for anything the typed helpers do not cover. */
    public ObjectNode json() {
        return json;
    }

    Optional<String> getString(String key) {
        JsonNode n = json.get(key);
        return n == null || n.isNull() ? Optional.empty() : Optional.of(n.asText());
    }

    public OptionalLong getLong(String key) {
        JsonNode n = json.get(key);
        if (n == null || n.isNull()) {
            return OptionalLong.empty();
        }
        if (!n.canConvertToLong()) {
            throw new IllegalStateException("metadata '" + key + "' is not a whole number: " + n);
        }
        return OptionalLong.of(n.asLong());
    }

    Optional<Boolean> getBoolean(String key) {
        JsonNode n = json.get(key);
        return n == null || n.isNull() ? Optional.empty() : Optional.of(n.asBoolean());
    }

    Optional<Instant> getInstant(String key) {
        return getString(key).map(Instant::parse);
    }

    /** Reads a value bound to a Java type (records, lists…) with the scheduler's JSON mapper. */
    public <T> Optional<T> get(String key, Class<T> type) {
        JsonNode n = json.get(key);
        if (n == null || n.isNull()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Json.MAPPER.treeToValue(n, type));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("metadata '" + key + "' is not a " + type.getSimpleName() + ": "
                    + e.getOriginalMessage(), e);
        }
    }

    public Metadata put(String key, String value) {
        json.put(key, value);
        return this;
    }

    public Metadata put(String key, long value) {
        json.put(key, value);
        return this;
    }

    public Metadata put(String key, boolean value) {
        json.put(key, value);
        return this;
    }

    public Metadata put(String key, Instant value) {
        json.put(key, value == null ? null : value.toString());
        return this;
    }

    /** Stores any value the scheduler's JSON mapper can write. */
    public Metadata putValue(String key, Object value) {
        json.set(key, Json.MAPPER.valueToTree(value));
        return this;
    }

    Metadata remove(String key) {
        json.remove(key);
        return this;
    }

    Metadata copy() {
        return new Metadata(json.deepCopy());
    }

    String toJson() {
        return Json.write(json);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Metadata other && json.equals(other.json);
    }

    @Override
    public int hashCode() {
        return json.hashCode();
    }

    @Override
    public String toString() {
        return toJson();
    }
}
