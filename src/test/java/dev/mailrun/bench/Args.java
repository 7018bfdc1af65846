package dev.mailrun.bench;

import java.util.HashMap;
import java.util.Map;

/** {@code --name value} arguments with defaults. */
final class Args {

    private final Map<String, String> values = new HashMap<>();

    Args(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("arguments are --name value pairs, got: " + String.join(" ", args));
            }
            values.put(args[i].substring(2), args[++i]);
        }
    }

    int integer(String name, int fallback) {
        return values.containsKey(name) ? Integer.parseInt(values.get(name)) : fallback;
    }

    String text(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    int[] integers(String name, int... fallback) {
        if (!values.containsKey(name)) {
            return fallback;
        }
        return java.util.Arrays.stream(values.get(name).split(",")).mapToInt(Integer::parseInt).toArray();
    }
}
