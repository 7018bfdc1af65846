package dev.mailrun.http.console;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sample recipient a preview renders for, as the preview forms hold it: {@code sampleEmail},
 * {@code sampleName}, one input per column the template needs ({@code f.<column>}) and any other field as
 * {@code column=value} lines ({@code sampleFields}); and the query that hands the same sample to the
 * sandboxed frame of the HTML part.
 */
final class SampleRecipient {

    private SampleRecipient() {}

    /** The inputs for the template's required columns other than email and name: name, form field and value given. */
    static List<Map<String, String>> columns(Collection<String> required, Map<String, String> values) {
        List<Map<String, String>> columns = new ArrayList<>();
        for (String c : required) {
            if (!c.equals("email") && !c.equals("name")) {
                columns.add(Map.of("name", c, "field", TemplatePreview.FIELD_PREFIX + c,
                        "value", values.getOrDefault(TemplatePreview.FIELD_PREFIX + c, "")));
            }
        }
        return columns;
    }

    /**
     * The sample's merge fields as {@code f.<column>}: the template's required columns, then any other
     * field given as {@code column=value} lines (optional fields, such as one with a default).
     */
    static Map<String, String> fields(Map<String, String> values, List<Map<String, String>> columns) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (Map<String, String> c : columns) {
            fields.put(c.get("field"), c.get("value"));
        }
        for (String line : values.getOrDefault("sampleFields", "").split("\\R")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                fields.putIfAbsent(TemplatePreview.FIELD_PREFIX + line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        return fields;
    }

    /** The sample's address: the one given, or {@link TemplatePreview#SAMPLE_EMAIL}. */
    static String email(Map<String, String> values) {
        String given = values.getOrDefault("sampleEmail", "").strip();
        return given.isEmpty() ? TemplatePreview.SAMPLE_EMAIL : given;
    }

    /** The frame's query for this sample: {@code email=…&name=…&f.<column>=…}. */
    static String query(Map<String, String> values, Map<String, String> fields) {
        StringBuilder q = new StringBuilder("email=").append(enc(email(values)))
                .append("&name=").append(enc(values.getOrDefault("sampleName", "")));
        fields.forEach((k, v) -> q.append('&').append(enc(k)).append('=').append(enc(v)));
        return q.toString();
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
