package dev.mailrun.http.console;

import dev.mailrun.campaign.store.TemplateTable;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateProblem;
import dev.mailrun.mail.template.TemplateSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The template editor's form: its four text areas as a template's parts, and each problem of a
 * compilation or a save put beside the area of its part, as {@code part:line:column: message}.
 */
final class TemplateForm {

    /** The form's text areas and the parts they hold, in the order the page shows them. */
    static final Map<String, String> PARTS = java.util.Collections.unmodifiableMap(parts());
    /** Where a problem of the template as a whole (its size) is shown: above the Save button. */
    static final String WHOLE = "template";

    private TemplateForm() {}

    /**
     * The form's text as a template's parts. A browser sends a text area's line breaks as CRLF: they
     * are made LF again, so that unchanged text is the same text (a save of it stores nothing). An empty
     * properties area is no properties part.
     */
    static TemplateSource source(String name, Map<String, String> form) {
        Map<String, String> parts = new LinkedHashMap<>();
        PARTS.forEach((field, part) -> parts.put(part, lf(form.getOrDefault(field, ""))));
        Optional<String> properties = Optional.of(parts.get(TemplateLoader.PROPERTIES)).filter(p -> !p.isBlank());
        return TemplateSource.of(name, parts.get(TemplateLoader.SUBJECT), parts.get(TemplateLoader.TEXT),
                parts.get(TemplateLoader.HTML), properties);
    }

    /** A stored version's text as the form's values. */
    static Map<String, String> values(TemplateTable.Version v) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("subject", v.subject());
        values.put("html", v.html());
        values.put("text", v.text());
        values.put("properties", v.properties().orElse(""));
        return values;
    }

    /** What a new template's form starts with: the least a message needs, an unsubscribe link in both parts. */
    static Map<String, String> skeleton() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("subject", "News for {{ name | default(\"you\") }}\n");
        values.put("html", "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>{{ campaign }}</title></head>\n"
                + "<body>\n<p>{% if name %}Hi {{ name }},{% else %}Hi there,{% endif %}</p>\n<p></p>\n"
                + "<p><a href=\"{{ unsubscribe_url }}\">Unsubscribe</a></p>\n</body>\n</html>\n");
        values.put("text", "{% if name %}Hi {{ name }},{% else %}Hi there,{% endif %}\n\n\n--\nUnsubscribe: {{ unsubscribe_url }}\n");
        values.put("properties", "");
        return values;
    }

    /** Each problem beside its part's area (several joined), a problem of the whole template under {@link #WHOLE}. */
    static Map<String, String> errors(String name, List<TemplateProblem> problems) {
        Map<String, String> errors = new LinkedHashMap<>();
        for (TemplateProblem p : problems) {
            String part = p.file().startsWith(name + "/") ? p.file().substring(name.length() + 1) : "";
            String field = PARTS.entrySet().stream().filter(e -> e.getValue().equals(part)).map(Map.Entry::getKey)
                    .findFirst().orElse(WHOLE);
            String text = field.equals(WHOLE) ? p.message() : p.toString().substring(name.length() + 1);
            errors.merge(field, text, (a, b) -> a + "; " + b);
        }
        return errors;
    }

    private static String lf(String text) {
        return text.replace("\r\n", "\n").replace('\r', '\n');
    }

    private static Map<String, String> parts() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("subject", TemplateLoader.SUBJECT);
        m.put("html", TemplateLoader.HTML);
        m.put("text", TemplateLoader.TEXT);
        m.put("properties", TemplateLoader.PROPERTIES);
        return m;
    }
}
