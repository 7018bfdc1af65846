package dev.mailrun.campaign.send;

import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.model.Variant;
import dev.mailrun.campaign.send.deliver.Messages;
import dev.mailrun.campaign.variant.AbGate;
import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.scheduler.RunContext;
import dev.mailrun.scheduler.RunReport;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an A/B test changes in a run ({@link AbGate}): a waiting campaign's run ends at once with the
 * reason, its next run moved to when the decision is due; otherwise the run's messages are built per
 * variant, and until a winner is picked the run claims only the test share.
 */
final class AbRun {

    /** The run end's name when the campaign waits for its A/B decision. */
    static final String WAITING = "ab_decision";
    /**
     * How often a campaign waiting for {@code campaign pick} looks again without being woken: the
     * pick wakes the task itself, so this is only a safety net, not a poll.
     */
    static final Duration MANUAL_RECHECK = Duration.ofHours(1);

    private AbRun() {
    }

    /** Ends a run of a waiting campaign: nothing to do until the decision. */
    static void hold(RunContext ctx, Campaign campaign, AbGate.Phase.Waiting waiting) {
        Instant now = ctx.clock().instant();
        Instant next = waiting.until().orElse(now.plus(MANUAL_RECHECK));
        NextRun.skipTo(ctx, campaign, NextRun.slotAtOrAfter(next, ctx.interval()));
        ctx.idle();
        ctx.report(RunReport.empty().withSummary("campaign", campaign.id()).withSummary("end", WAITING)
                .withSummary("why", waiting.reason()));
    }

    /**
     * At the end of a run that sent the test share and found nobody due: when the share is done, the
     * wait for the decision starts now, the next run is moved to when it is due, and the run ends
     * saying so; empty when test recipients are still to send (retries due later).
     */
    static Optional<RunEndReason> afterTestShare(RunContext ctx, Campaign campaign, javax.sql.DataSource dataSource)
            throws SQLException {
        if (!(new AbGate(dataSource).phase(campaign.id(), ctx.clock().instant()) instanceof AbGate.Phase.Waiting waiting)) {
            return Optional.empty();
        }
        Instant next = waiting.until().orElse(ctx.clock().instant().plus(MANUAL_RECHECK));
        NextRun.skipTo(ctx, campaign, NextRun.slotAtOrAfter(next, ctx.interval()));
        return Optional.of(new RunEndReason(WAITING, Optional.of(waiting.reason())));
    }

    /** The test (or the decided test) a sending phase carries; empty without one. */
    static Optional<AbState> state(AbGate.Phase phase) {
        if (phase instanceof AbGate.Phase.TestShare t) {
            return Optional.of(t.state());
        }
        return phase instanceof AbGate.Phase.Decided d ? Optional.of(d.state()) : Optional.empty();
    }

    /**
     * Each variant's template compiled, in position order; a variant without its own uses the
     * campaign's ({@code campaignTemplate}, already compiled).
     *
     * @return the templates, or the reason one does not compile
     */
    static Compiled compile(SendDependencies deps, Campaign campaign, AbState ab, CompiledTemplate campaignTemplate,
                            Map<String, ContentPin> pins) throws SQLException {
        List<CompiledTemplate> out = new ArrayList<>();
        for (Variant v : ab.test().variants()) {
            if (v.template().isEmpty() || v.template().get().equals(campaign.template())) {
                out.add(campaignTemplate);
                continue;
            }
            ContentPin pin = pins.get(v.name());
            LoadResult loaded = pin == null ? PinnedTemplates.notStored(v.template().get()) : deps.templates().load(pin);
            if (loaded instanceof LoadResult.Invalid invalid) {
                return new Compiled(List.of(), Optional.of("template " + v.template().get() + " of variant " + v.name()
                        + " does not compile: " + invalid.problems().get(0)));
            }
            out.add(((LoadResult.Loaded) loaded).template());
        }
        return new Compiled(out, Optional.empty());
    }

    record Compiled(List<CompiledTemplate> templates, Optional<String> problem) {}

    /** The run's messages: per variant when the campaign has a test, otherwise the campaign's one factory. */
    static Messages messages(SendDependencies deps, Campaign campaign, CompiledTemplate template, Optional<AbState> ab,
                             List<CompiledTemplate> variantTemplates, java.time.Clock clock) throws SQLException {
        return ab.isEmpty() ? deps.messages(campaign, template, clock)
                : deps.variantMessages(campaign, variantTemplates, ab.get(), clock);
    }
}
