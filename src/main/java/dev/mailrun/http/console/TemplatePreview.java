package dev.mailrun.http.console;

import dev.mailrun.campaign.Templates;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.mail.template.TemplateSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A template rendered for sample values: one in templates.dir, or the text a template's editor holds.
 * The subject and text show on the page (escaped there); the HTML part is the template author's markup
 * and is shown only in a frame of its own ({@code GET /console/templates/<name>/preview?…}, or
 * {@code …/draft/frame?…} for the editor's text, {@link TemplateEditor}), under a policy that runs no script and loads nothing
 * ({@code sandbox} without {@code allow-scripts}: an opaque origin, so nothing in it reaches the console's
 * origin, its cookies or its pages) — and the page's iframe is sandboxed as well.
 */
final class TemplatePreview {

    /** The frame's policy: inline styles and data images, which mail often has; no script; framed only by the console. */
    static final String FRAME_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'self'";
    /** Query fields that carry a recipient's merge fields: {@code f.company=ACME}. */
    static final String FIELD_PREFIX = "f.";
    static final String SAMPLE_EMAIL = "reader@example.com";

    private final Templates templates;

    TemplatePreview(ConsoleServices services) {
        this.templates = services.api().templates();
    }

    /** What the preview of {@code template} for the sample in {@code values} shows, or why there is none. */
    record Shown(String subject, String text, String problem) {}

    Shown render(String template, String sampleEmail, String sampleName, Map<String, String> values) {
        return render(sampleEmail, email -> templates.preview(template, email, sampleName.strip(), fields(values)));
    }

    /** The same for a template's text an editor holds, not stored yet. */
    static Shown render(TemplateSource source, String sampleEmail, String sampleName, Map<String, String> values) {
        return render(sampleEmail, email -> Templates.preview(source, email, sampleName.strip(), fields(values)));
    }

    private static Shown render(String sampleEmail, Function<String, Templates.Preview> preview) {
        String email = sampleEmail.strip();
        if (EmailAddress.check(email) instanceof EmailAddress.Invalid invalid) {
            return new Shown(null, null, "Sample email: " + invalid.reason());
        }
        Templates.Preview p;
        try {
            p = preview.apply(email);
        } catch (CampaignException e) {
            return new Shown(null, null, e.getMessage());
        }
        if (!p.problems().isEmpty()) {
            return new Shown(null, null, p.problems().stream().map(Object::toString).collect(Collectors.joining("; ")));
        }
        if (p.rejected().isPresent()) {
            return new Shown(null, null, p.rejected().get());
        }
        return new Shown(p.content().orElseThrow().subject(), p.content().orElseThrow().text(), null);
    }

    /** The HTML part alone, for the sandboxed frame. */
    Answer frame(ConsoleRequest r) {
        String template = r.vars().get(0);
        return frame(r.query(), (email, name) -> templates.preview(template, email, name, fields(r.query())));
    }

    /** The HTML part of a template's text an editor holds, for the sandboxed frame. */
    static Answer frame(TemplateSource source, Map<String, String> query) {
        return frame(query, (email, name) -> Templates.preview(source, email, name, fields(query)));
    }

    private static Answer frame(Map<String, String> query, BiFunction<String, String, Templates.Preview> preview) {
        Templates.Preview p;
        try {
            String email = query.getOrDefault("email", SAMPLE_EMAIL).strip();
            if (EmailAddress.check(email) instanceof EmailAddress.Invalid invalid) {
                return text("Sample email: " + invalid.reason());
            }
            p = preview.apply(email, query.getOrDefault("name", "").strip());
        } catch (CampaignException e) {
            return text(e.getMessage());
        }
        if (p.content().isEmpty()) {
            return text("No preview: " + (p.rejected().isPresent() ? p.rejected().get()
                    : p.problems().stream().map(Object::toString).collect(Collectors.joining("; "))));
        }
        return new Answer.Document("text/html; charset=utf-8", p.content().get().html(), FRAME_POLICY, true);
    }

    static Map<String, String> fields(Map<String, String> values) {
        Map<String, String> fields = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (k.startsWith(FIELD_PREFIX) && k.length() > FIELD_PREFIX.length()) {
                fields.put(k.substring(FIELD_PREFIX.length()), v);
            }
        });
        return fields;
    }

    /** A frame that shows why there is no preview. */
    static Answer text(String message) {
        return new Answer.Document("text/plain; charset=utf-8", message + "\n", FRAME_POLICY, true);
    }
}
