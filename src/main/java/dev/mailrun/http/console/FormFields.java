package dev.mailrun.http.console;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An {@code application/x-www-form-urlencoded} body or query as fields, the first value of each name
 * kept. A malformed escape is the client's error ({@link IllegalArgumentException}, a 400).
 */
final class FormFields {

    /** More fields than any console form has: the rest is not a form of ours. */
    static final int MAX_FIELDS = 64;

    private FormFields() {}

    static Map<String, String> parse(String encoded) {
        Map<String, String> fields = new LinkedHashMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return fields;
        }
        String[] pairs = encoded.split("&");
        if (pairs.length > MAX_FIELDS) {
            throw new IllegalArgumentException("the form has more than " + MAX_FIELDS + " fields");
        }
        for (String pair : pairs) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            fields.putIfAbsent(name, value);
        }
        return fields;
    }
}
