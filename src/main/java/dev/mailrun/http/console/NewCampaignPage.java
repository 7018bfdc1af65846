package dev.mailrun.http.console;

import dev.mailrun.campaign.AudienceNames;
import dev.mailrun.campaign.CampaignForm;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.Templates;
import dev.mailrun.campaign.content.MessageForm;
import dev.mailrun.campaign.content.OwnMessageComposer;
import dev.mailrun.campaign.content.OwnMessageComposer.Composition;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CustomHeaders;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.variant.AbForm;
import dev.mailrun.mail.message.AddedHeaders;
import dev.mailrun.mail.template.TemplateSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code /console/campaigns/new}: choose a template, see the fields it needs, preview it with sample
 * values ({@link TemplatePreview}), and create the campaign. The values are checked by
 * {@link CampaignForm}, the one check {@code campaign create} and the API run, and each of its messages
 * is shown next to its field. With {@code own=1} the template is the layout of the campaign's own
 * message, written on the same form ({@link MessageFields}) and created as the API creates one with a
 * {@code message}; Preview composes it as creating the campaign would and shows it, creating nothing
 * ({@link #previewMessage}).
 */
final class NewCampaignPage {

    /** The form's fields and their longest values: the API's limits. */
    private static final Map<String, Integer> LIMITS = limits();
    /** The form's fields as its labels name them, for the summary above the form (new-campaign.peb). */
    private static final Map<String, String> LABELS = Map.ofEntries(Map.entry("template", "Template"), Map.entry("name", "Name"),
            Map.entry("from", "From address"), Map.entry("fromName", "From name"), Map.entry("replyTo", "Reply-To"),
            Map.entry("subject", "Subject"), Map.entry("rate", "Rate"), Map.entry("relay", "Route"),
            Map.entry("windows", "Send windows"), Map.entry("startAt", "Start at"), Map.entry("expireAt", "Expire at"),
            Map.entry("headers", "Headers"), Map.entry("layout", "Layout"), Map.entry("format", "Body format"),
            Map.entry("body", "Body"), Map.entry("text", "Text part"), Map.entry("webVersion", "Web version"));

    private final ConsoleServices services;
    private final Views views;
    private final TemplatePreview preview;

    NewCampaignPage(ConsoleServices services, Views views, TemplatePreview preview) {
        this.services = services;
        this.views = views;
        this.preview = preview;
    }

    Answer show(ConsoleRequest r) {
        Map<String, String> values = new HashMap<>(r.query());
        return page(r, 200, values, Map.of());
    }

    Answer create(ConsoleRequest r) throws Exception {
        Map<String, String> values = r.form();
        Map<String, String> errors = new LinkedHashMap<>();
        boolean own = isOwn(values);
        // An own message's subject is the message's, whose limit the domain checks (998 characters).
        LIMITS.forEach((field, max) -> {
            String v = values.getOrDefault(field, "");
            if (v.length() > max && !(own && field.equals("subject"))) {
                errors.put(field, "at most " + max + " characters");
            }
        });
        Optional<Double> rate = Optional.empty();
        if (r.field("rate").isPresent()) {
            try {
                rate = Optional.of(Double.parseDouble(r.field("rate").get()));
            } catch (NumberFormatException e) {
                errors.put("rate", "must be a number of messages per second, such as 2.5");
            }
        }
        List<String> windows = r.field("windows").map(w -> Arrays.stream(w.split("\\R")).map(String::strip)
                .filter(l -> !l.isEmpty()).toList()).orElse(List.of());
        List<CustomHeaders.Header> headers = List.of();
        try {
            headers = CustomHeaders.parse(r.field("headers").map(h -> Arrays.stream(h.split("\\R")).map(String::strip)
                    .filter(l -> !l.isEmpty()).toList()).orElse(List.of())).list();
        } catch (InvalidFields e) {
            e.problems().forEach(p -> errors.put(p.field(), p.reason()));
        }
        Optional<MessageForm> message = Optional.empty();
        if (own) {
            Map<String, String> fields = new HashMap<>(values);
            fields.put("layout", values.getOrDefault("template", ""));
            MessageFields.Read read = MessageFields.read(fields);
            errors.putAll(read.errors());
            message = read.form();
        }
        // The domain checks every field, so that the page shows all that is wrong in one round; a field
        // this page already found wrong (too long, not a number) keeps its own message.
        CampaignForm form = new CampaignForm(r.field("name").orElse(""), r.field("template").orElse(""), r.field("from"),
                r.field("fromName"), r.field("replyTo"), own ? Optional.empty() : r.field("subject"), r.field("startAt"), rate,
                windows, r.field("expireAt"), r.field("relay"), headers, r.field("webVersion"));
        List<InvalidFields.Problem> problems = new ArrayList<>();
        long id = 0;
        Campaigns campaigns = services.api().campaigns();
        if (errors.isEmpty()) {
            try {
                id = message.isPresent()
                        ? campaigns.create(form, services.api().relays(), AbForm.none(), List.of(), Optional.empty(), message.get(),
                                AudienceNames.NONE)
                        : campaigns.create(form, services.api().relays(), AbForm.none(), List.of(), Optional.empty());
            } catch (InvalidFields e) {
                problems.addAll(e.problems());
            }
        } else {
            // The layout's own problems are the message's to report, once the rest is right.
            campaigns.problems(form, services.api().relays(), AbForm.none(), Optional.empty()).stream()
                    .filter(p -> !own || !p.field().equals("template")).forEach(problems::add);
        }
        problems.forEach(p -> errors.merge(p.field(), p.reason(), (a, b) -> a.equals(b) ? a : a + "; " + b));
        if (own && errors.containsKey("layout")) {
            // The layout is the template this page chose: its problems are shown where the template is.
            errors.merge("template", errors.remove("layout"), (a, b) -> a.equals(b) ? a : a + "; " + b);
        }
        if (!errors.isEmpty()) {
            return page(r, 422, values, errors);
        }
        r.session().flash(false, "Campaign " + id + " is created as a draft: add its recipients, then start it.");
        return Answer.redirect(ConsoleHandler.PREFIX + "/campaigns/" + id);
    }

    /**
     * Preview of the campaign's own message before the campaign exists: composed as creating it would compose
     * it ({@link dev.mailrun.campaign.CampaignMessages#compose(String, MessageForm)}), kept in the session for
     * the frame, rendered for the sample recipient; a problem of the message beside its field. Nothing is
     * created or stored.
     */
    Answer previewMessage(ConsoleRequest r) throws Exception {
        Map<String, String> values = r.form();
        Map<String, String> fields = new HashMap<>(values);
        fields.put("layout", values.getOrDefault("template", ""));
        MessageFields.Read read = MessageFields.read(fields);
        Map<String, String> errors = new LinkedHashMap<>(read.errors());
        Map<String, Object> shown = null;
        List<Map<String, String>> columns = List.of();
        if (read.form().isPresent()) {
            try {
                Composition.Composed composed = services.api().campaigns().messages()
                        .compose(values.getOrDefault("name", ""), read.form().get());
                r.session().draft(composed.source());
                columns = SampleRecipient.columns(composed.template().requiredColumns(), values);
                Map<String, String> sample = SampleRecipient.fields(values, columns);
                TemplatePreview.Shown p = TemplatePreview.render(composed.source(), SampleRecipient.email(values),
                        values.getOrDefault("sampleName", ""), sample);
                shown = new HashMap<>();
                shown.put("subject", p.subject());
                shown.put("text", p.text());
                shown.put("problem", p.problem());
                shown.put("src", ConsoleHandler.PREFIX + "/campaigns/new/frame?message=" + SampleRecipient.enc(composed.source().name())
                        + "&" + SampleRecipient.query(values, sample));
            } catch (InvalidFields e) {
                errors.putAll(MessageFields.errors(e));
            }
        }
        if (errors.containsKey("layout")) {
            errors.merge("template", errors.remove("layout"), (a, b) -> a.equals(b) ? a : a + "; " + b);
        }
        return page(r, errors.isEmpty() ? 200 : 422, values, errors, new OwnPreview(shown, columns));
    }

    /** The HTML part of the own message this login previewed last on this page, for the sandboxed frame. */
    Answer messageFrame(ConsoleRequest r) {
        Optional<TemplateSource> draft = r.session().draft(r.query().getOrDefault("message", ""));
        if (draft.isEmpty()) {
            return TemplatePreview.text("No preview: press Preview on the new campaign's message again.");
        }
        return TemplatePreview.frame(draft.get(), r.query());
    }

    /** A previewed own message: what the preview shows (null: none) and the sample inputs for the columns it needs. */
    private record OwnPreview(Map<String, Object> shown, List<Map<String, String>> columns) {
        static final OwnPreview NONE = new OwnPreview(null, List.of());
    }

    private Answer page(ConsoleRequest r, int status, Map<String, String> values, Map<String, String> errors) {
        return page(r, status, values, errors, OwnPreview.NONE);
    }

    private Answer page(ConsoleRequest r, int status, Map<String, String> values, Map<String, String> errors, OwnPreview previewed) {
        Templates templates = services.api().templates();
        Map<String, Object> model = new HashMap<>();
        model.put("messagePreview", previewed.shown());
        model.put("messageColumns", previewed.columns());
        model.put("previewing", previewed != OwnPreview.NONE);
        model.put("mayPreview", r.session().may(dev.mailrun.campaign.model.ApiScope.TEMPLATES_READ));
        model.put("webVersionDefault", services.api().campaigns().webVersions().byDefault().word());
        String template = values.getOrDefault("template", "").strip();
        boolean own = isOwn(values);
        model.put("templates", templates.names());
        model.put("template", template);
        model.put("own", own);
        model.put("maxSubject", OwnMessageComposer.MAX_SUBJECT_CHARS);
        Map<String, String> filled = MessageFields.values(values);
        for (String field : LIMITS.keySet()) {
            filled.putIfAbsent(field, "");
        }
        model.put("values", filled);
        model.put("errors", errors);
        model.put("errorSummary", errors.entrySet().stream().map(e -> LABELS.getOrDefault(e.getKey(), e.getKey()) + ": " + e.getValue())
                .collect(Collectors.toList()));
        List<Map<String, String>> columns = new ArrayList<>();
        model.put("columns", columns);
        model.put("templateProblems", List.of());
        model.put("preview", null);
        if (!template.isEmpty()) {
            try {
                Templates.Described d = templates.describe(template);
                columns.addAll(SampleRecipient.columns(d.requiredColumns(), values));
                model.put("templateProblems", d.problems().stream().map(Object::toString).toList());
                // A layout's preview would ask for its {{ content }}: an own message is previewed on the draft's message page.
                if (r.session().may(dev.mailrun.campaign.model.ApiScope.TEMPLATES_READ) && d.problems().isEmpty() && !own) {
                    Map<String, String> sample = SampleRecipient.fields(values, columns);
                    TemplatePreview.Shown shown = preview.render(template, SampleRecipient.email(values),
                            values.getOrDefault("sampleName", ""), sample);
                    Map<String, Object> p = new HashMap<>();
                    p.put("subject", shown.subject());
                    p.put("text", shown.text());
                    p.put("problem", shown.problem());
                    p.put("src", ConsoleHandler.PREFIX + "/templates/" + SampleRecipient.enc(template) + "/preview?"
                            + SampleRecipient.query(values, sample));
                    model.put("preview", p);
                }
            } catch (CampaignException e) {
                errors = new LinkedHashMap<>(errors);
                errors.put("template", e.getMessage());
                model.put("errors", errors);
            }
        }
        return new Answer.Page(status, views.render("new-campaign", r.session(), model));
    }

    /** Whether the form writes the campaign's own message into the chosen template as its layout. */
    private static boolean isOwn(Map<String, String> values) {
        return "1".equals(values.get("own"));
    }

    private static Map<String, Integer> limits() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("name", 200);
        m.put("template", 64);
        m.put("from", 254);
        m.put("fromName", 200);
        m.put("replyTo", 254);
        m.put("subject", 500);
        m.put("startAt", 40);
        m.put("rate", 40);
        m.put("windows", 20 * 200);
        m.put("expireAt", 100);
        m.put("relay", 500);
        m.put("headers", AddedHeaders.MAX_HEADERS * (AddedHeaders.MAX_LINE + 2));
        m.put("webVersion", 20);
        return m;
    }
}
