package dev.mailrun.http.console;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.store.ContentPinTable;
import dev.mailrun.campaign.store.TemplateTable;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /console/campaigns/<id>/content}: moves what a draft, scheduled or paused campaign sends to
 * another stored template version — {@link Campaigns#moveContent}, as {@code campaign content} moves it,
 * recorded with who moved it ({@code console:<token name>}). Choose the template (a GET form: the page
 * then lists its versions, no script), then the version, the latest or one of them. An A/B campaign's
 * variant moves the same way, chosen beside the template (a variant moves only within its own template:
 * the domain refuses otherwise). A page of its own, as pausing is: the campaign's page reloads itself
 * while the campaign is scheduled.
 */
final class CampaignContentPage {

    private static final String LATEST = "latest";

    private final Views views;
    private final Campaigns campaigns;
    private final TemplateStore store;

    CampaignContentPage(ConsoleServices services, Views views) {
        this.views = views;
        this.campaigns = services.api().campaigns();
        this.store = services.content().templates();
    }

    /** Whether a campaign in {@code status} may be moved to other content now (a run still ending refuses later). */
    static boolean movable(CampaignStatus status) {
        return status == CampaignStatus.DRAFT || status == CampaignStatus.SCHEDULED || status == CampaignStatus.PAUSED;
    }

    Answer show(ConsoleRequest r) throws SQLException {
        Campaign c;
        try {
            c = campaigns.get(r.id(0));
        } catch (CampaignException e) {
            return Answer.error(404, e.getMessage() + ".");
        }
        String template = r.param("template").orElse(c.template());
        return page(r, 200, c, template, r.param("version").orElse(LATEST), r.param("variant").orElse(""), Map.of());
    }

    Answer move(ConsoleRequest r) throws Exception {
        long id = r.id(0);
        Campaign c;
        try {
            c = campaigns.get(id);
        } catch (CampaignException e) {
            return Answer.error(404, e.getMessage() + ".");
        }
        String template = r.field("template").orElse("");
        String version = r.field("version").orElse(LATEST);
        String variant = r.field("variant").orElse("");
        Map<String, String> errors = new LinkedHashMap<>();
        if (store.list().stream().noneMatch(s -> s.name().equals(template))) {
            errors.put("template", template.isEmpty() ? "choose a template" : "no stored template named " + template);
        }
        Optional<Integer> v = Optional.empty();
        if (!version.equals(LATEST)) {
            if (version.matches("[1-9]\\d{0,8}")) {
                v = Optional.of(Integer.parseInt(version));
            } else {
                errors.put("version", "a version is a whole number, such as 3, or the latest");
            }
        }
        if (errors.isEmpty()) {
            try {
                Optional<String> which = variant.isEmpty() ? Optional.empty() : Optional.of(variant);
                ContentPin pin = campaigns.moveContent(id, template, v, which, "console:" + r.session().caller().name());
                r.session().flash(false, (which.isPresent() ? "Variant " + variant + " of campaign " : "Campaign ") + id
                        + " now sends version " + pin.version() + " of template " + pin.template() + ".");
                return Answer.redirect(ConsoleHandler.PREFIX + "/campaigns/" + id);
            } catch (InvalidFields e) {
                e.problems().forEach(p -> errors.merge(p.field(), p.reason(), (a, b) -> a + "; " + b));
            } catch (CampaignException e) {
                // Not a draft, scheduled or paused campaign (any more), or a run still ends: nothing to correct here.
                throw new Refusal("/campaigns/" + id, e.getMessage() + ".");
            }
        }
        return page(r, 422, c, template, version, variant, errors);
    }

    private Answer page(ConsoleRequest r, int status, Campaign c, String template, String version, String variant,
                        Map<String, String> errors) throws SQLException {
        List<TemplateTable.Stored> stored = store.list();
        Map<String, Object> model = new HashMap<>();
        model.put("c", Map.of("id", c.id(), "name", c.name(), "status", c.status().dbValue()));
        model.put("movable", movable(c.status()));
        model.put("templates", stored.stream().map(TemplateTable.Stored::name).toList());
        model.put("template", template);
        model.put("version", version);
        model.put("versions", stored.stream().anyMatch(s -> s.name().equals(template)) ? TemplateHistory.rows(store, template) : List.of());
        List<ContentPinTable.Change> changes = campaigns.contentHistory(c.id());
        model.put("history", history(changes));
        model.put("variants", variants(changes));
        model.put("variant", variant);
        model.put("errors", errors);
        return new Answer.Page(status, views.render("campaign-content", r.session(), model));
    }

    /** A campaign's pins and moves, newest first, as the campaign's page and this one show them. */
    static List<Map<String, Object>> history(List<ContentPinTable.Change> changes) {
        List<ContentPinTable.Change> newestFirst = new ArrayList<>(changes);
        Collections.reverse(newestFirst);
        return newestFirst.stream().map(ch -> Map.<String, Object>of("at", ch.at().toString(),
                "variant", ch.variant().orElse("-"), "template", ch.template(),
                "from", ch.from().map(String::valueOf).orElse("-"), "to", ch.to(), "by", ch.by())).toList();
    }

    /** The campaign's A/B variants that carry content of their own, by name: each was pinned when the campaign was created. */
    static List<String> variants(List<ContentPinTable.Change> changes) {
        return changes.stream().flatMap(ch -> ch.variant().stream()).distinct().sorted().toList();
    }

    /** What the campaign sends now: {@code template version N}, from its newest pin; empty before any. */
    static Optional<String> current(List<ContentPinTable.Change> changes) {
        return changes.stream().filter(ch -> ch.variant().isEmpty()).reduce((a, b) -> b)
                .map(ch -> ch.template() + " version " + ch.to());
    }
}
