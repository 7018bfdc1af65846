package dev.mailrun.campaign.variant;

import dev.mailrun.campaign.content.Contents;
import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.PickBy;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.model.Variant;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.MergeFields;
import dev.mailrun.mail.template.TemplateProblem;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The template checks of an A/B test's variants: the same checks as the campaign's own template. */
public final class VariantChecks {

    private VariantChecks() {
    }

    /**
     * At create: every variant's own template compiles; with tracking, no variant has a template of its
     * own; the measure it is picked by is counted. Each problem with its field (variants, pickBy).
     */
    public static List<InvalidFields.Problem> problemsAtCreate(Contents templates, AbTest test, Optional<TrackingMode> tracking,
                                                               boolean repliesCounted) {
        List<InvalidFields.Problem> problems = new ArrayList<>();
        for (Variant v : test.variants()) {
            if (v.template().isPresent() && templates.load(v.template().get()) instanceof LoadResult.Invalid invalid) {
                problems.add(InvalidFields.Problem.about("variants", v.name(), "template " + v.template().get() + " cannot be used: "
                        + invalid.problems().get(0)));
            } else if (v.template().isPresent() && tracking.isPresent()) {
                // A run rewrites the campaign's template's links once and stores them by index per campaign;
                // a second template's links would share those indexes, and a click could reach the other variant's URL.
                problems.add(InvalidFields.Problem.about("variants", v.name(), "a tracked campaign's variants cannot change the "
                        + "template (its tracked links are numbered per campaign); vary subject, from-name or fields, or do not track"));
            }
        }
        if (test.pickBy() == PickBy.CLICKS && !tracking.map(TrackingMode::clicks).orElse(false)) {
            problems.add(new InvalidFields.Problem("pickBy", "clicks needs the campaign's clicks tracked (track clicks, with "
                    + "tracking.enabled), or pick manually"));
        }
        if (test.pickBy() == PickBy.REPLIES && !repliesCounted) {
            problems.add(new InvalidFields.Problem("pickBy", "replies needs the replies mailbox read: set replies.imap.host "
                    + "(docs/MAIL.md, \"Replies\"), or pick manually"));
        }
        return problems;
    }

    /**
     * At start: each variant's own template uses only fields every recipient has, with the variant's
     * fields added; the first problem found. (The campaign's template is checked by start itself.)
     */
    public static Optional<String> problemAtStart(Contents templates, Map<String, ContentPin> pins, AbTest test,
                                                  Set<String> columns) throws SQLException {
        for (Variant v : test.variants()) {
            if (v.template().isEmpty()) {
                continue;
            }
            String template = v.template().get();
            Set<String> available = new HashSet<>(columns);
            available.addAll(v.fields().keySet());
            ContentPin pin = pins.get(v.name());
            List<TemplateProblem> problems = pin == null ? templates.check(template, MergeFields.available(available))
                    : templates.check(pin, MergeFields.available(available));
            if (!problems.isEmpty()) {
                return Optional.of("variant " + v.name() + ": " + problems.size() + " template problem(s), first: "
                        + problems.get(0) + " (run: mailrun template check " + template + ")");
            }
        }
        return Optional.empty();
    }
}
