package dev.mailrun.http.console;

import dev.mailrun.campaign.CampaignMessages;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.content.MessageForm;
import dev.mailrun.campaign.content.OwnMessageComposer;
import dev.mailrun.campaign.content.OwnMessageComposer.Composition;
import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.mail.template.TemplateSource;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /console/campaigns/<id>/message}: a campaign's own message — layout, subject, Markdown or HTML
 * body, optional text part — written while what the campaign sends may change. Preview composes it as a
 * save would ({@link CampaignMessages#compose}) and renders it for a sample recipient: subject and text on
 * the page, the HTML part in the sandboxed frame of {@link TemplatePreview}, which renders the composition
 * this login previewed last (too large for the frame's URL). Save hands it to {@link CampaignMessages#write},
 * the one call that checks, stores and pins it, recorded as {@code console:<token name>}; each of the
 * domain's problems is shown beside its field and nothing is stored. The form opens with the message the
 * campaign sends as it was written ({@link CampaignMessages#written}), or empty with a note saying why.
 */
final class CampaignMessagePage {

    private final Views views;
    private final Campaigns campaigns;
    private final ConsoleServices services;

    CampaignMessagePage(ConsoleServices services, Views views) {
        this.services = services;
        this.views = views;
        this.campaigns = services.api().campaigns();
    }

    /** The largest form: the body and the text each within the template size limit, every byte escaped (three at most), and room for the rest. */
    static int maxFormBytes(TemplateStore store) {
        return (int) Math.min(Integer.MAX_VALUE / 2, 6 * store.maxBytes() + ConsoleHandler.MAX_FORM_BYTES);
    }

    Answer show(ConsoleRequest r) throws SQLException {
        Optional<Campaign> c = campaign(r);
        if (c.isEmpty()) {
            return Answer.error(404, "There is no campaign " + r.vars().get(0) + ".");
        }
        Map<String, String> values = Map.of();
        String note = null;
        if (CampaignContentPage.movable(c.get().status())) {
            CampaignMessages.Written written = campaigns.messages().written(c.get().id());
            if (written instanceof CampaignMessages.Written.Kept kept) {
                values = MessageFields.of(kept.form());
            } else if (written instanceof CampaignMessages.Written.NotKept notKept) {
                note = "The campaign sends " + notKept.pin() + ", whose message as written was not kept (it was stored before"
                        + " mailrun kept messages, or saved as a whole template): the form starts empty.";
            }
        }
        return page(r, 200, c.get(), MessageFields.values(values), Map.of(), null, false, List.of(), note);
    }

    /** Preview: the message composed as a save would compose it, kept for the frame; or its problems beside their fields. */
    Answer preview(ConsoleRequest r) throws SQLException {
        Optional<Campaign> c = campaign(r);
        if (c.isEmpty()) {
            return Answer.error(404, "There is no campaign " + r.vars().get(0) + ".");
        }
        Map<String, String> values = MessageFields.values(r.form());
        MessageFields.Read read = MessageFields.read(r.form());
        if (read.form().isEmpty()) {
            return page(r, 422, c.get(), values, read.errors(), null, false, List.of());
        }
        Composition.Composed composed;
        try {
            composed = campaigns.messages().compose(c.get().id(), read.form().get());
        } catch (InvalidFields e) {
            return page(r, 422, c.get(), values, MessageFields.errors(e), null, false, List.of());
        }
        TemplateSource source = composed.source();
        r.session().draft(source);
        List<Map<String, String>> columns = SampleRecipient.columns(composed.template().requiredColumns(), values);
        Map<String, String> sample = SampleRecipient.fields(values, columns);
        TemplatePreview.Shown shown = TemplatePreview.render(source, SampleRecipient.email(values),
                values.get("sampleName"), sample);
        Map<String, Object> preview = new HashMap<>();
        preview.put("subject", shown.subject());
        preview.put("text", shown.text());
        preview.put("problem", shown.problem());
        preview.put("src", ConsoleHandler.PREFIX + "/campaigns/" + c.get().id() + "/message/frame?" + SampleRecipient.query(values, sample));
        return page(r, 200, c.get(), values, Map.of(), preview, false, columns);
    }

    /** Save: stored and pinned when nothing is wrong; otherwise the page again, each problem beside its field. */
    Answer save(ConsoleRequest r) throws Exception {
        Optional<Campaign> c = campaign(r);
        if (c.isEmpty()) {
            return Answer.error(404, "There is no campaign " + r.vars().get(0) + ".");
        }
        long id = c.get().id();
        Map<String, String> values = MessageFields.values(r.form());
        MessageFields.Read read = MessageFields.read(r.form());
        if (read.form().isEmpty()) {
            return page(r, 422, c.get(), values, read.errors(), null, true, List.of());
        }
        try {
            ContentPin pin = campaigns.messages().write(id, read.form().get(), "console:" + r.session().caller().name());
            r.session().flash(false, "Campaign " + id + " now sends its own message: version " + pin.version() + " of template "
                    + pin.template() + ".");
            return Answer.redirect(ConsoleHandler.PREFIX + "/campaigns/" + id);
        } catch (InvalidFields e) {
            return page(r, 422, c.get(), values, MessageFields.errors(e), null, true, List.of());
        } catch (CampaignException e) {
            // Not a draft, scheduled or paused campaign (any more), or a run still ends: nothing to correct here.
            throw new Refusal("/campaigns/" + id, e.getMessage() + ".");
        }
    }

    /** The HTML part of the message this login previewed last, for the sandboxed frame. */
    Answer frame(ConsoleRequest r) throws SQLException {
        Optional<Campaign> c = campaign(r);
        Optional<TemplateSource> draft = c.flatMap(campaign -> r.session().draft(MessageForm.templateName(campaign.name())));
        if (draft.isEmpty()) {
            return TemplatePreview.text("No preview: press Preview on the campaign's message again.");
        }
        return TemplatePreview.frame(draft.get(), r.query());
    }

    private Optional<Campaign> campaign(ConsoleRequest r) throws SQLException {
        try {
            return Optional.of(campaigns.get(r.id(0)));
        } catch (CampaignException e) {
            return Optional.empty();
        }
    }

    /**
     * The page with {@code values}; {@code refusedSave}: the errors are why a save stored nothing;
     * {@code columns}: the sample inputs for the columns the composed message needs (known once it composed).
     */
    private Answer page(ConsoleRequest r, int status, Campaign c, Map<String, String> values, Map<String, String> errors,
                        Map<String, Object> preview, boolean refusedSave, List<Map<String, String>> columns) {
        return page(r, status, c, values, errors, preview, refusedSave, columns, null);
    }

    /** As above, with {@code note}: why the form starts empty (null: no note). */
    private Answer page(ConsoleRequest r, int status, Campaign c, Map<String, String> values, Map<String, String> errors,
                        Map<String, Object> preview, boolean refusedSave, List<Map<String, String>> columns, String note) {
        Map<String, Object> model = new HashMap<>();
        model.put("note", note);
        model.put("c", Map.of("id", c.id(), "name", c.name(), "status", c.status().dbValue(), "template", c.template()));
        model.put("writable", CampaignContentPage.movable(c.status()));
        model.put("templateName", MessageForm.templateName(c.name()));
        model.put("layouts", services.api().templates().names());
        model.put("values", values);
        model.put("errors", errors);
        model.put("preview", preview);
        model.put("refusedSave", refusedSave);
        model.put("columns", columns);
        model.put("maxSubject", OwnMessageComposer.MAX_SUBJECT_CHARS);
        model.put("mayPreview", r.session().may(ApiScope.TEMPLATES_READ));
        return new Answer.Page(status, views.render("campaign-message", r.session(), model));
    }
}
