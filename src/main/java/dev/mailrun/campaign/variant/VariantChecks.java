package dev.mailrun.campaign.variant;

import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.PickBy;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.model.Variant;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.MergeFields;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateProblem;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The template checks of an A/B test's variants: the same checks as the campaign's own template. */
public final class VariantChecks {

    private VariantChecks() {
    }

    /** At create: every variant's own template compiles. */
    public static void refuseBroken(TemplateLoader templates, AbTest test) {
        for (Variant v : test.variants()) {
            if (v.template().isPresent() && templates.load(v.template().get()) instanceof LoadResult.Invalid invalid) {
                throw new CampaignException("--variant " + v.name() + ": template " + v.template().get() + " cannot be used: "
                        + invalid.problems().get(0));
            }
        }
    }

    /**
     * At create, for a tracked campaign: no variant has a template of its own. A run rewrites the
     * campaign's template's links once and stores them by index per campaign; a second template's
     * links would share those indexes, and a click could be sent to the other variant's URL.
     */
    public static void refuseTrackedTemplates(AbTest test) {
        for (Variant v : test.variants()) {
            if (v.template().isPresent()) {
                throw new CampaignException("--variant " + v.name() + ": a tracked campaign's variants cannot change the "
                        + "template (its tracked links are numbered per campaign); vary subject, from-name or fields, or do not use --track");
            }
        }
    }

    /**
     * At create: picking by clicks needs the campaign's clicks tracked ({@code --track clicks}); by
     * replies, the replies mailbox read ({@code replies.imap.host}: {@code repliesCounted}).
     */
    public static void refuseUnmeasured(AbTest test, Optional<TrackingMode> tracking, boolean repliesCounted) {
        if (test.pickBy() == PickBy.CLICKS && !tracking.map(TrackingMode::clicks).orElse(false)) {
            throw new CampaignException("--pick-by clicks needs the campaign's clicks tracked: add --track clicks "
                    + "(tracking.enabled), or use --pick-by manual");
        }
        if (test.pickBy() == PickBy.REPLIES && !repliesCounted) {
            throw new CampaignException("--pick-by replies needs the replies mailbox read: set replies.imap.host "
                    + "(docs/MAIL.md, \"Replies\"), or use --pick-by manual");
        }
    }

    /**
     * At start: each variant's own template uses only fields every recipient has, with the variant's
     * fields added; the first problem found. (The campaign's template is checked by start itself.)
     */
    public static Optional<String> problemAtStart(TemplateLoader templates, AbTest test, Set<String> columns) {
        for (Variant v : test.variants()) {
            if (v.template().isEmpty()) {
                continue;
            }
            String template = v.template().get();
            Set<String> available = new HashSet<>(columns);
            available.addAll(v.fields().keySet());
            List<TemplateProblem> problems = templates.check(template, MergeFields.available(available));
            if (!problems.isEmpty()) {
                return Optional.of("variant " + v.name() + ": " + problems.size() + " template problem(s), first: "
                        + problems.get(0) + " (run: mailrun template check " + template + ")");
            }
        }
        return Optional.empty();
    }
}
