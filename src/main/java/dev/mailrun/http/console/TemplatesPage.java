package dev.mailrun.http.console;

import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.store.TemplateTable;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /console/templates}: the stored templates (name, latest version, when it was saved), each
 * a link to its editor ({@link TemplateEditor}), and a form naming a new one: {@code ?name=} opens the
 * editor of a name that is free, or says beside the field why it cannot be used.
 */
final class TemplatesPage {

    /** What {@code TemplateLoader} accepts as a template's name: a path segment of the console as it is. */
    static final String NAME = "[A-Za-z0-9][A-Za-z0-9_-]{0,63}";

    private final Views views;
    private final TemplateStore store;

    TemplatesPage(ConsoleServices services, Views views) {
        this.views = views;
        this.store = services.content().templates();
    }

    Answer show(ConsoleRequest r) throws SQLException {
        List<TemplateTable.Stored> stored = store.list();
        Optional<String> name = Optional.ofNullable(r.query().get("name")).map(String::strip);
        Map<String, String> errors = new HashMap<>();
        if (name.isPresent()) {
            String n = name.get();
            if (!n.matches(NAME)) {
                errors.put("name", "a template's name is 1-64 letters, digits, '-' and '_', starting with a letter or digit");
            } else if (stored.stream().anyMatch(s -> s.name().equals(n))) {
                errors.put("name", "template " + n + " is stored already: open it from the list");
            } else {
                return Answer.redirect(ConsoleHandler.PREFIX + "/templates/" + n);
            }
        }
        Map<String, Object> model = new HashMap<>();
        model.put("templates", stored.stream().map(s -> Map.<String, Object>of("name", s.name(), "latest", s.latestVersion(),
                "updated", s.updatedAt().toString())).toList());
        model.put("newName", name.orElse(""));
        model.put("errors", errors);
        return new Answer.Page(errors.isEmpty() ? 200 : 422, views.render("templates", r.session(), model));
    }
}
