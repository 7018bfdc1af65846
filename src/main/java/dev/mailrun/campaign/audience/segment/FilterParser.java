package dev.mailrun.campaign.audience.segment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.mailrun.campaign.model.InvalidFields;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a segment's filter from JSON (docs/AUDIENCE.md, "Segments") into a {@link SegmentFilter},
 * strictly: an unknown key, a value of the wrong type, a name the attribute rule refuses, or a filter
 * past its bounds ({@value #MAX_DEPTH} levels, {@value #MAX_NODES} conditions, texts of
 * {@value Leaves#MAX_TEXT} characters, {@value Leaves#MAX_IN} values in an {@code in}) is a problem
 * named by its path ({@code filter.and[2].attr}); every problem is reported at once. The bounds keep
 * the compiled SQL small whatever a client sends.
 */
public final class FilterParser {

    public static final int MAX_DEPTH = 8;
    public static final int MAX_NODES = 100;
    /** The whole filter as text: room for the largest {@code in} with room to spare, no more. */
    public static final int MAX_CHARS = 1_000_000;
    /** The field a filter is reported under; every path starts with it. */
    public static final String FIELD = "filter";

    static final List<String> CONDITIONS = List.of("and", "or", "not", "attr", "list", "status", "engaged", "bounced", "complained");

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** A filter read: the tree, its JSON as stored (compact), and the lists it names by their paths (to check they exist). */
    public record Parsed(SegmentFilter filter, String json, Map<String, String> lists) {}

    private final Problems problems = new Problems();
    private final Leaves leaves = new Leaves(problems);
    private int nodes;

    private FilterParser() {}

    /** @throws InvalidFields naming each bad part by its path */
    public static Parsed parse(String json) {
        if (json == null || json.isBlank()) {
            throw InvalidFields.of(FIELD, "must not be blank");
        }
        if (json.length() > MAX_CHARS) {
            throw InvalidFields.of(FIELD, "is longer than " + MAX_CHARS + " characters");
        }
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw InvalidFields.of(FIELD, "is not JSON: " + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
        FilterParser parser = new FilterParser();
        SegmentFilter filter = parser.condition(root, FIELD, 1);
        parser.problems.throwIfAny();
        return new Parsed(filter, root.toString(), parser.leaves.lists());
    }

    private SegmentFilter condition(JsonNode node, String path, int depth) {
        if (node == null || !node.isObject()) {
            problems.add(path, "must be an object with one of " + String.join(", ", CONDITIONS));
            return null;
        }
        if (++nodes > MAX_NODES) {
            if (nodes == MAX_NODES + 1) {
                problems.add(FIELD, "has more than " + MAX_NODES + " conditions");
            }
            return null;
        }
        if (depth > MAX_DEPTH) {
            problems.add(path, "nests deeper than " + MAX_DEPTH + " levels");
            return null;
        }
        String kind = null;
        // "status" is a condition of its own, and a key of "list" (the subscription's status).
        boolean onList = node.has("list");
        for (Iterator<String> keys = node.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (CONDITIONS.contains(key) && !(onList && key.equals("status"))) {
                if (kind != null) {
                    problems.add(path + "." + key, "one condition per object: this one has '" + kind + "' already");
                    return null;
                }
                kind = key;
            }
        }
        if (kind == null) {
            problems.add(path, "must have one of " + String.join(", ", CONDITIONS));
            return null;
        }
        return switch (kind) {
            case "and", "or" -> group(node, path, depth, kind);
            case "not" -> {
                problems.onlyKeys(node, path, Set.of("not"));
                SegmentFilter part = condition(node.get("not"), path + ".not", depth + 1);
                yield part == null ? null : new SegmentFilter.Not(part);
            }
            default -> leaves.leaf(node, path, kind);
        };
    }

    private SegmentFilter group(JsonNode node, String path, int depth, String kind) {
        problems.onlyKeys(node, path, Set.of(kind));
        JsonNode parts = node.get(kind);
        String at = path + "." + kind;
        if (!parts.isArray() || parts.isEmpty()) {
            problems.add(at, "must be a list of one or more conditions");
            return null;
        }
        List<SegmentFilter> read = new ArrayList<>();
        for (int i = 0; i < parts.size() && nodes <= MAX_NODES; i++) {
            read.add(condition(parts.get(i), at + "[" + i + "]", depth + 1));
        }
        if (read.contains(null) || read.size() < parts.size()) {
            return null;
        }
        return kind.equals("and") ? new SegmentFilter.All(read) : new SegmentFilter.Any(read);
    }

    /** The problems of one filter, in the order met. */
    static final class Problems {

        private final List<InvalidFields.Problem> all = new ArrayList<>();

        void add(String path, String reason) {
            all.add(new InvalidFields.Problem(path, reason));
        }

        /** A problem for each key of {@code node} not in {@code allowed}. */
        void onlyKeys(JsonNode node, String path, Set<String> allowed) {
            Set<String> unknown = new LinkedHashSet<>();
            node.fieldNames().forEachRemaining(k -> {
                if (!allowed.contains(k)) {
                    unknown.add(k);
                }
            });
            unknown.forEach(k -> add(path + "." + k, "unknown key (expected " + String.join(", ", allowed) + ")"));
        }

        void throwIfAny() {
            if (!all.isEmpty()) {
                throw new InvalidFields(all);
            }
        }
    }
}
