package dev.mailrun.http.console;

import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.store.TemplateTable;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateSource;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /console/templates/<name>}: the editor of a stored template's next version. Its subject, HTML
 * part, text part and properties start as the latest version (or the one {@code ?version=} names; a name
 * not stored yet starts from {@link TemplateForm#skeleton}). Preview renders the text as it stands, with
 * a sample recipient, on the page (the HTML part in the sandboxed frame of {@link TemplatePreview}, which
 * renders the text this login previewed last: too large for the frame's URL). Save hands the text to
 * {@link TemplateStore#save}, the one check {@code template import} runs: nothing is stored unless it
 * compiles and differs from the latest version, and each problem is shown beside its part's area. Below
 * the form, the template's versions ({@link TemplateHistory}).
 */
final class TemplateEditor {

    private final ConsoleServices services;
    private final Views views;
    private final TemplateStore store;

    TemplateEditor(ConsoleServices services, Views views) {
        this.services = services;
        this.views = views;
        this.store = services.content().templates();
    }

    /** The largest editor form: every part's text escaped in the form (three bytes each at most), and room for the rest. */
    static int maxFormBytes(TemplateStore store) {
        return (int) Math.min(Integer.MAX_VALUE / 2, 3 * store.maxBytes() + ConsoleHandler.MAX_FORM_BYTES);
    }

    Answer show(ConsoleRequest r) throws SQLException {
        String name = r.vars().get(0);
        Optional<String> asked = r.param("version");
        Optional<Integer> version = Optional.empty();
        if (asked.isPresent()) {
            if (!asked.get().matches("[1-9]\\d{0,8}")) {
                return Answer.error(404, "Template " + name + " has no version " + asked.get() + ".");
            }
            version = Optional.of(Integer.parseInt(asked.get()));
        }
        Map<String, String> values;
        Optional<TemplateTable.Version> from = Optional.empty();
        try {
            from = Optional.of(store.version(name, version));
            values = new HashMap<>(TemplateForm.values(from.get()));
        } catch (CampaignException e) {
            if (version.isPresent()) {
                return Answer.error(404, e.getMessage() + ".");
            }
            values = new HashMap<>(TemplateForm.skeleton());
        }
        return page(r, 200, name, from.map(TemplateTable.Version::version), values, Map.of(), null, false);
    }

    /** Preview: the text as it stands, kept for the frame; the problems that keep it from compiling beside their areas. */
    Answer preview(ConsoleRequest r) throws SQLException {
        String name = r.vars().get(0);
        TemplateSource source = TemplateForm.source(name, r.form());
        r.session().draft(source);
        Map<String, String> values = new HashMap<>(r.form());
        if (TemplateLoader.compile(source, Optional.empty()) instanceof LoadResult.Invalid invalid) {
            return page(r, 422, name, base(r), values, TemplateForm.errors(name, invalid.problems()), null, false);
        }
        List<Map<String, String>> columns = columns(source, values);
        Map<String, String> sample = SampleRecipient.fields(values, columns);
        TemplatePreview.Shown shown = TemplatePreview.render(source, SampleRecipient.email(values),
                values.getOrDefault("sampleName", ""), sample);
        Map<String, Object> preview = new HashMap<>();
        preview.put("subject", shown.subject());
        preview.put("text", shown.text());
        preview.put("problem", shown.problem());
        preview.put("src", ConsoleHandler.PREFIX + "/templates/" + name + "/draft/frame?" + SampleRecipient.query(values, sample));
        return page(r, 200, name, base(r), values, Map.of(), preview, false);
    }

    /** Save: a new version when the text compiles and differs; what happened on the editor, the problems beside their areas. */
    Answer save(ConsoleRequest r) throws SQLException {
        String name = r.vars().get(0);
        TemplateSource source = TemplateForm.source(name, r.form());
        TemplateStore.Saved saved = store.save(source, "console:" + r.session().caller().name());
        if (saved instanceof TemplateStore.Saved.Refused refused) {
            return page(r, 422, name, base(r), new HashMap<>(r.form()), TemplateForm.errors(name, refused.problems()), null, true);
        }
        if (saved instanceof TemplateStore.Saved.NewVersion v) {
            r.session().flash(false, v.created() ? "Template " + name + " is stored as version 1."
                    : "Version " + v.version() + " of template " + name + " is saved.");
        } else {
            TemplateStore.Saved.Unchanged u = (TemplateStore.Saved.Unchanged) saved;
            r.session().flash(false, "Nothing was saved: the text is the same as version " + u.version() + ", the latest.");
        }
        return Answer.redirect(ConsoleHandler.PREFIX + "/templates/" + name);
    }

    /** The HTML part of the text this login previewed last, for the sandboxed frame. */
    Answer frame(ConsoleRequest r) {
        String name = r.vars().get(0);
        Optional<TemplateSource> draft = r.session().draft(name);
        if (draft.isEmpty()) {
            return TemplatePreview.text("No preview: press Preview on the editor of template " + name + " again.");
        }
        return TemplatePreview.frame(draft.get(), r.query());
    }

    /** The version the posted text started from, as the form says it; a value not a number says none. */
    private static Optional<Integer> base(ConsoleRequest r) {
        return r.field("base").filter(b -> b.matches("[1-9]\\d{0,8}")).map(Integer::parseInt);
    }

    /** The editor with {@code values}; {@code refusedSave}: the errors are why a save stored nothing. */
    private Answer page(ConsoleRequest r, int status, String name, Optional<Integer> base, Map<String, String> values,
                        Map<String, String> errors, Map<String, Object> preview, boolean refusedSave) throws SQLException {
        Map<String, String> filled = new HashMap<>(values);
        for (String field : List.of("subject", "html", "text", "properties", "sampleEmail", "sampleName", "sampleFields")) {
            filled.putIfAbsent(field, "");
        }
        Map<String, Object> model = new HashMap<>();
        model.put("name", name);
        model.put("base", base.orElse(null));
        model.put("values", filled);
        model.put("errors", errors);
        model.put("preview", preview);
        model.put("refusedSave", refusedSave);
        model.put("columns", columns(TemplateForm.source(name, filled), filled));
        List<Map<String, Object>> versions = TemplateHistory.rows(store, name);
        model.put("versions", versions);
        model.put("latest", versions.isEmpty() ? null : versions.get(0).get("version"));
        return new Answer.Page(status, views.render("template", r.session(), model));
    }

    /** The sample inputs for the columns the text needs; none while it does not compile. */
    private static List<Map<String, String>> columns(TemplateSource source, Map<String, String> values) {
        if (TemplateLoader.compile(source, Optional.empty()) instanceof LoadResult.Loaded loaded) {
            return SampleRecipient.columns(loaded.template().requiredColumns(), values);
        }
        return new ArrayList<>();
    }
}
