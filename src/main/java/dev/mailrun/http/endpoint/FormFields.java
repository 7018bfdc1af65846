package dev.mailrun.http.endpoint;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An {@code application/x-www-form-urlencoded} body's fields, read as UTF-8 (the body is bounded by
 * its reader). At most {@value #MAX_FIELDS} fields are read; a part that does not decode is skipped.
 */
final class FormFields {

    static final int MAX_FIELDS = 100;

    private final Map<String, List<String>> fields;

    private FormFields(Map<String, List<String>> fields) {
        this.fields = fields;
    }

    static FormFields parse(byte[] body) {
        Map<String, List<String>> fields = new LinkedHashMap<>();
        String text = new String(body, StandardCharsets.UTF_8);
        int count = 0;
        for (String part : text.split("&")) {
            if (part.isEmpty() || count++ >= MAX_FIELDS) {
                continue;
            }
            int eq = part.indexOf('=');
            try {
                String name = URLDecoder.decode(eq < 0 ? part : part.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8);
                fields.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
            } catch (IllegalArgumentException malformed) {
                // a broken %-escape: the field is not there
            }
        }
        return new FormFields(fields);
    }

    /** The field's first value; empty text when it is absent. */
    String first(String name) {
        List<String> values = fields.get(name);
        return values == null || values.isEmpty() ? "" : values.get(0);
    }

    Optional<String> optional(String name) {
        List<String> values = fields.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    List<String> all(String name) {
        return fields.getOrDefault(name, List.of());
    }
}
