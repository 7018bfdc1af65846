package dev.mailrun.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mailrun.timebox.SafetyMargins;
import java.time.Duration;

/**
 * The measurements a task's safety margin is derived from, kept in its metadata under {@link #KEY}:
 * for each of the last {@link #KEPT} runs, how late after its slot it started ({@code lateMs}) and how
 * long after its deadline the run before it released the task ({@code releaseMs}).
 * {@link SafetyMargins} turns them into the margin.
 */
final class RunMargin {

    static final String KEY = "margin";
    static final int KEPT = 20;

    private RunMargin() {}

    /** Appends one sample pair, keeping the newest {@link #KEPT}. */
    static void record(Metadata metadata, Duration late, Duration release) {
        ObjectNode node = node(metadata);
        append((ArrayNode) node.get("lateMs"), late.toMillis());
        append((ArrayNode) node.get("releaseMs"), release.toMillis());
    }

    /** The stats of the stored samples; unusable metadata counts as no samples (the margin is then the cap). */
    static SafetyMargins.Stats stats(Metadata metadata, SafetyMargins margins) {
        JsonNode node = metadata.json().get(KEY);
        if (node == null || !node.isObject()) {
            return margins.stats(new long[0], new long[0]);
        }
        long[] late = longs(node.get("lateMs"));
        long[] release = longs(node.get("releaseMs"));
        if (late == null || release == null || late.length != release.length) {
            return margins.stats(new long[0], new long[0]);
        }
        return margins.stats(late, release);
    }

    private static ObjectNode node(Metadata metadata) {
        JsonNode node = metadata.json().get(KEY);
        if (node instanceof ObjectNode object && longs(object.get("lateMs")) != null
                && longs(object.get("releaseMs")) != null && object.get("lateMs").size() == object.get("releaseMs").size()) {
            return object;
        }
        ObjectNode fresh = metadata.json().putObject(KEY);
        fresh.putArray("lateMs");
        fresh.putArray("releaseMs");
        return fresh;
    }

    private static void append(ArrayNode array, long value) {
        array.add(value);
        while (array.size() > KEPT) {
            array.remove(0);
        }
    }

    private static long[] longs(JsonNode node) {
        if (node == null || !node.isArray()) {
            return null;
        }
        long[] values = new long[node.size()];
        for (int i = 0; i < values.length; i++) {
            if (!node.get(i).canConvertToLong()) {
                return null;
            }
            values[i] = node.get(i).asLong();
        }
        return values;
    }
}
