package dev.mailrun.http.api;

import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.store.TemplateTable.Stored;
import dev.mailrun.campaign.store.TemplateTable.Version;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateProblem;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Stored templates in the API's JSON, and a template's problems under the request's member names. */
final class TemplateJson {

    /** A template's parts by the members that carry them: {@code body.html} is {@code html}. */
    private static final Map<String, String> FIELDS = Map.of(TemplateLoader.SUBJECT, "subject", TemplateLoader.TEXT, "text",
            TemplateLoader.HTML, "html", TemplateLoader.PROPERTIES, "properties");

    private TemplateJson() {}

    static Map<String, Object> stored(Stored t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", t.name());
        m.put("latest_version", t.latestVersion());
        m.put("created_at", t.createdAt().toString());
        m.put("updated_at", t.updatedAt().toString());
        return m;
    }

    /** A version without its text: what {@code template versions} prints. */
    static Map<String, Object> summary(Version v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", v.version());
        m.put("subject", v.subject());
        m.put("digest", v.digest());
        m.put("saved_by", v.savedBy());
        m.put("saved_at", v.savedAt().toString());
        return m;
    }

    /** A version whole: its text, and what it compiles to (the columns every recipient needs). */
    static Map<String, Object> version(Version v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", v.name());
        m.putAll(summary(v));
        m.put("text", v.text());
        m.put("html", v.html());
        m.put("properties", v.properties().orElse(null));
        LoadResult compiled = TemplateLoader.compile(TemplateStore.source(v), Optional.empty());
        List<TemplateProblem> problems = compiled instanceof LoadResult.Invalid invalid ? invalid.problems() : List.of();
        m.put("valid", problems.isEmpty());
        m.put("required_columns", compiled instanceof LoadResult.Loaded loaded
                ? List.copyOf(loaded.template().requiredColumns()) : List.of());
        m.put("problems", problems.stream().map(p -> Map.<String, Object>of("file", p.file(), "line", p.line(), "column", p.column(),
                "message", p.message())).toList());
        return m;
    }

    /**
     * A save's problems, each under the member holding the part it is in ({@code name/body.html:3:5: …}
     * under {@code html}); one about the whole template (its size) under {@code body}.
     */
    static List<InvalidFields.Problem> problems(String name, List<TemplateProblem> problems) {
        return problems.stream().map(p -> {
            String part = p.file().startsWith(name + "/") ? p.file().substring(name.length() + 1) : "";
            return new InvalidFields.Problem(FIELDS.getOrDefault(part, "body"), p.toString());
        }).toList();
    }
}
