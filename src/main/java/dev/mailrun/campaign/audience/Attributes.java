package dev.mailrun.campaign.audience;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.campaign.model.InvalidFields;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A subscriber's attributes: a JSON object of strings, numbers and booleans, bounded so that a row
 * stays small whatever a client sends — at most {@value #MAX_KEYS} names of at most
 * {@value #MAX_NAME_CHARS} characters, and {@value #MAX_BYTES} bytes as compact JSON in UTF-8. They
 * become a campaign's merge fields, which are flat, so nested objects and arrays are refused.
 */
public final class Attributes {

    public static final int MAX_KEYS = 64;
    public static final int MAX_NAME_CHARS = 64;
    public static final int MAX_BYTES = 8 * 1024;
    /** The field bad attributes are reported under. */
    static final String FIELD = "attributes";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Attributes NONE = new Attributes(Map.of(), null);

    private final Map<String, Object> values;
    private final String json;

    private Attributes(Map<String, Object> values, String json) {
        this.values = values;
        this.json = json;
    }

    public static Attributes none() {
        return NONE;
    }

    /**
     * The attributes {@code values} names, checked: every problem at once, each naming the attribute.
     *
     * @throws InvalidFields naming the field {@code attributes}
     */
    public static Attributes of(Map<String, ?> values) {
        if (values.isEmpty()) {
            return NONE;
        }
        List<InvalidFields.Problem> problems = new ArrayList<>();
        if (values.size() > MAX_KEYS) {
            problems.add(new InvalidFields.Problem(FIELD, "has " + values.size() + " names, more than the " + MAX_KEYS + " allowed"));
        }
        Map<String, Object> checked = new LinkedHashMap<>();
        for (Map.Entry<String, ?> e : values.entrySet()) {
            String name = e.getKey() == null ? "" : e.getKey();
            nameProblem(name).ifPresent(p -> problems.add(InvalidFields.Problem.about(FIELD, "'" + name + "'", p)));
            valueProblem(e.getValue()).ifPresent(p -> problems.add(InvalidFields.Problem.about(FIELD, "'" + name + "'", p)));
            checked.put(name, e.getValue());
        }
        TextFields.throwIfAny(problems);
        String json = write(checked);
        int bytes = json.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            throw InvalidFields.of(FIELD, "take " + bytes + " bytes as JSON, more than the " + MAX_BYTES + " allowed");
        }
        return new Attributes(Collections.unmodifiableMap(checked), json);
    }

    /** The attributes as the database holds them (written by this class, so already checked); empty for none. */
    public static Attributes stored(Optional<String> json) {
        if (json.isEmpty()) {
            return NONE;
        }
        try {
            Map<String, Object> m = JSON.readValue(json.get(), new TypeReference<LinkedHashMap<String, Object>>() {});
            return m.isEmpty() ? NONE : new Attributes(Collections.unmodifiableMap(m), write(m));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a subscriber's attributes in the database are not a JSON object: " + e.getOriginalMessage(), e);
        }
    }

    /** Why {@code name} cannot name an attribute, or empty: the rule for the API's names and an import's columns alike. */
    public static Optional<String> nameProblem(String name) {
        if (name.isBlank()) {
            return Optional.of("a name must not be blank");
        }
        if (name.length() > MAX_NAME_CHARS) {
            return Optional.of("a name is at most " + MAX_NAME_CHARS + " characters");
        }
        if (name.chars().anyMatch(TextFields::isControl)) {
            return Optional.of("a name must not contain control characters");
        }
        return Optional.empty();
    }

    private static Optional<String> valueProblem(Object value) {
        if (value instanceof String || value instanceof Boolean || value instanceof Integer || value instanceof Long
                || value instanceof BigInteger || value instanceof BigDecimal || value instanceof Short || value instanceof Byte) {
            return Optional.empty();
        }
        if (value instanceof Double d && Double.isFinite(d) || value instanceof Float f && Float.isFinite(f)) {
            return Optional.empty();
        }
        String what = value == null ? "null"
                : value instanceof Map<?, ?> ? "an object"
                : value instanceof Iterable<?> || value.getClass().isArray() ? "an array"
                : value instanceof Number ? "a number that is not finite"
                : "a " + value.getClass().getSimpleName();
        return Optional.of("must be a string, a number or true/false, not " + what);
    }

    private static String write(Map<String, Object> values) {
        try {
            return JSON.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write attributes as JSON", e);
        }
    }

    /** Every attribute, in the order given (or stored); unmodifiable. */
    public Map<String, Object> values() {
        return values;
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The compact JSON object to store; empty for none (stored as NULL). */
    public Optional<String> json() {
        return Optional.ofNullable(json);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Attributes a && values.equals(a.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return json == null ? "{}" : json;
    }
}
