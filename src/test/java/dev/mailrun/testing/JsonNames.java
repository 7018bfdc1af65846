package dev.mailrun.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one convention of mailrun's JSON (the API, its contract, {@code campaign status --json}): every member
 * name is snake_case, and every id ({@code id}, {@code *_id}) is a JSON integer. Two ids are not mailrun's
 * row numbers and stay strings: an email's {@code message_id} (its Message-ID header) and an event's
 * {@code id} (the UUID receivers deduplicate by, docs/EVENTS.md).
 */
public final class JsonNames {

    public static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");

    /** Members whose value maps data to data (header names, merge fields, reject reasons): their keys are not names of ours. */
    public static final Set<String> MAPS = Set.of("headers", "fields", "rejected_by_reason");

    private JsonNames() {}

    /** Every departure from the convention in {@code node}, as {@code path: what}; empty when it follows it. */
    public static List<String> problems(JsonNode node) {
        List<String> problems = new ArrayList<>();
        walk(node, "$", null, problems);
        return problems;
    }

    /** Whether a member named {@code name} is an id. */
    public static boolean isId(String name) {
        return name.equals("id") || name.endsWith("_id");
    }

    private static void walk(JsonNode node, String path, String parentName, List<String> problems) {
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), path + "[" + i + "]", parentName, problems);
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        Iterator<Map.Entry<String, JsonNode>> members = node.fields();
        while (members.hasNext()) {
            Map.Entry<String, JsonNode> m = members.next();
            String name = m.getKey();
            String at = path + "." + name;
            if (!NAME.matcher(name).matches()) {
                problems.add(at + ": not a snake_case name");
            }
            JsonNode value = m.getValue();
            if (isId(name) && !value.isNull() && !value.isIntegralNumber() && !stringId(name, parentName)) {
                problems.add(at + ": an id that is not an integer (" + value + ")");
            }
            if (!MAPS.contains(name)) {
                walk(value, at, name, problems);
            }
        }
    }

    private static boolean stringId(String name, String parentName) {
        return name.equals("message_id") || name.equals("id") && "event".equals(parentName);
    }
}
