package dev.mailrun.http.console;

import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.store.TemplateTable;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A stored template's versions (version, who saved it, when, its subject), on the editor's page, and
 * {@code GET /console/templates/<name>/diff?from=&to=}: the unified diff of two of them, part by part, as
 * {@code template diff} prints it ({@link TemplateStore#diff}), each line marked added, removed or
 * context for the style sheet to colour — preformatted text, no script.
 */
final class TemplateHistory {

    private final Views views;
    private final TemplateStore store;

    TemplateHistory(ConsoleServices services, Views views) {
        this.views = views;
        this.store = services.content().templates();
    }

    /** The versions of {@code name}, newest first; none when it is not stored. */
    static List<Map<String, Object>> rows(TemplateStore store, String name) throws SQLException {
        List<TemplateTable.Version> versions;
        try {
            versions = store.versions(name);
        } catch (CampaignException notStored) {
            return List.of();
        }
        return versions.stream().map(v -> Map.<String, Object>of("version", v.version(), "key", String.valueOf(v.version()),
                "savedBy", v.savedBy(), "savedAt", v.savedAt().toString(), "subject", v.subject().strip())).toList();
    }

    Answer diff(ConsoleRequest r) throws SQLException {
        String name = r.vars().get(0);
        List<Map<String, Object>> versions = rows(store, name);
        if (versions.isEmpty()) {
            return Answer.error(404, "No stored template named " + name + ".");
        }
        Map<String, String> errors = new LinkedHashMap<>();
        Optional<Integer> from = version(r, "from", versions, errors);
        Optional<Integer> to = version(r, "to", versions, errors);
        Map<String, Object> model = new HashMap<>();
        model.put("name", name);
        model.put("versions", versions);
        model.put("from", r.query().getOrDefault("from", ""));
        model.put("to", r.query().getOrDefault("to", ""));
        model.put("errors", errors);
        model.put("lines", null);
        if (!errors.isEmpty()) {
            return new Answer.Page(422, views.render("template-diff", r.session(), model));
        }
        model.put("lines", store.diff(name, from.orElseThrow(), to.orElseThrow()).stream()
                .map(l -> Map.of("kind", kind(l), "text", l)).toList());
        return Answer.ok(views.render("template-diff", r.session(), model));
    }

    /** The query's {@code field} as one of the versions, or why not (in {@code errors}). */
    private static Optional<Integer> version(ConsoleRequest r, String field, List<Map<String, Object>> versions,
                                             Map<String, String> errors) {
        Optional<String> given = r.param(field);
        if (given.isEmpty()) {
            errors.put(field, "choose a version");
            return Optional.empty();
        }
        if (!given.get().strip().matches("[1-9]\\d{0,8}")) {
            errors.put(field, "a version is a whole number, such as 3");
            return Optional.empty();
        }
        int v = Integer.parseInt(given.get().strip());
        if (versions.stream().noneMatch(row -> row.get("version").equals(v))) {
            errors.put(field, "there is no version " + v);
            return Optional.empty();
        }
        return Optional.of(v);
    }

    /** A diff line's kind, a class of the style sheet: the file heads, a hunk's head, added, removed, unchanged. */
    private static String kind(String line) {
        if (line.startsWith("+++") || line.startsWith("---")) {
            return "head";
        }
        if (line.startsWith("@@")) {
            return "hunk";
        }
        if (line.startsWith("+")) {
            return "add";
        }
        return line.startsWith("-") ? "del" : "same";
    }
}
