package dev.mailrun.campaign.send;

import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.CampaignTransition;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.policy.Expiry;
import dev.mailrun.campaign.send.policy.SendCalendar;
import dev.mailrun.campaign.send.route.Relay;
import dev.mailrun.campaign.send.scope.CpuGauge;
import dev.mailrun.campaign.send.scope.RunScope;
import dev.mailrun.campaign.send.scope.Tables;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.campaign.store.recipient.SentSecondTable;
import dev.mailrun.campaign.variant.AbGate;
import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.scheduler.Metadata;
import dev.mailrun.scheduler.NewTask;
import dev.mailrun.scheduler.RunContext;
import dev.mailrun.scheduler.RunReport;
import dev.mailrun.scheduler.TaskHandler;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending task: one task per campaign (named {@code campaign-<id>}), so campaigns run side by
 * side and the scheduler guarantees that two runs of one campaign never overlap.
 *
 * <p>A run:
 * <ol>
 *   <li>turns rows left in {@code sending} by an earlier run of this task into {@code unknown}
 *       (that run died or failed; whether those messages went out cannot be known);</li>
 *   <li>starts a scheduled campaign whose time has come; stops at once unless the campaign is running;</li>
 *   <li>expires what is left of a campaign whose expiry came, and completes it; outside the send
 *       window, or with the daily cap of every relay of its route used up, stops without claiming and says why
 *       ({@link SendCalendar});</li>
 *   <li>with an A/B test ({@link AbRun}): gives the test share its variants at the first run, and
 *       while the campaign waits for the decision stops at once, saying until when;</li>
 *   <li>compiles the template once, one per variant (a template that no longer compiles pauses the campaign) and reads the
 *       campaign's relay route (one naming a relay no longer configured pauses it);</li>
 *   <li>stops if its window already closed, and otherwise hands over to a {@link SendRun}, which
 *       drains the queue in timeboxed batches until the slot's deadline, cut at the end of the
 *       send window and at the expiry.</li>
 * </ol>
 *
 * <p>A run that finds nothing it may do now (the campaign paused or not started yet, its window
 * closed, its daily cap used, its A/B decision awaited) says it was idle, so that status lists the
 * runs that did something; one that ends because every relay of its route is down says it was
 * blocked ({@link RunSummary}).
 */
public final class SendTask implements TaskHandler {

    /** The handler name stored in the task table: never change it, existing tasks name it. */
    public static final String NAME = "campaign-send";
    static final String CAMPAIGN_KEY = "campaignId";

    private static final Logger log = LoggerFactory.getLogger(SendTask.class);

    private final SendDependencies deps;
    private final Tables tables;
    private final SendCalendar calendar;
    private final CpuGauge cpu;

    public SendTask(SendDependencies deps) {
        // Where the runs read the worker's CPU, for status: the JVM's figures.
        this.cpu = CpuGauge.OS;
        this.deps = deps;
        this.tables = Tables.on(deps.dataSource());
        this.calendar = new SendCalendar(deps.settings().dailyCap());
    }

    public SendDependencies dependencies() {
        return deps;
    }

    public static String taskName(long campaignId) {
        return "campaign-" + campaignId;
    }

    /** The sending task of a campaign, first due at {@code firstRun}. */
    public static NewTask newTask(Campaign campaign, Duration interval, Instant firstRun) {
        return NewTask.of(taskName(campaign.id()), NAME, interval, firstRun)
                .withDescription("Send campaign " + campaign.id() + " (" + campaign.name() + ")")
                .withMetadata(Metadata.empty().put(CAMPAIGN_KEY, campaign.id()));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onAbandoned(Connection connection, String abandonedRunToken, Metadata metadata) throws SQLException {
        long campaignId = metadata.getLong(CAMPAIGN_KEY).orElseThrow(
                () -> new IllegalStateException("abandoned run " + abandonedRunToken + " has no campaignId in its task's metadata"));
        Instant now = deps.timing().clock().instant();
        Optional<InFlightTable.Held> held = tables.inFlight().lock(connection, campaignId);
        if (held.isEmpty() || !held.get().runToken().equals(Optional.of(abandonedRunToken))) {
            return;
        }
        int unknown = tables.results().markUnknown(connection, campaignId, held.get().recipientIds(),
                held.get().runToken(), now);
        tables.inFlight().release(connection, campaignId, now);
        if (unknown > 0) {
            log.warn("Run {} died while sending; {} recipient(s) marked unknown (never resent automatically)",
                    abandonedRunToken, unknown);
        }
    }

    @Override
    public void run(RunContext ctx) throws Exception {
        long campaignId = ctx.metadata().getLong(CAMPAIGN_KEY)
                .orElseThrow(() -> new IllegalStateException("task " + ctx.taskName() + " has no campaignId in its metadata"));
        Optional<Campaign> found = begin(ctx, campaignId);
        if (found.isEmpty() || found.get().status().isFinal()) {
            ctx.disableAfterThisRun();
            ctx.idle();
            ctx.report(RunReport.empty().withSummary("campaign", campaignId).withSummary("status",
                    found.map(f -> f.status().dbValue()).orElse("deleted")));
            return;
        }
        Campaign campaign = found.get();
        if (campaign.status() != CampaignStatus.RUNNING) {
            // Paused, or waiting for its start: a tick with nothing to do, not a run to list among the real ones.
            ctx.idle();
            campaign.startAt().filter(at -> campaign.status() == CampaignStatus.SCHEDULED).ifPresent(ctx::runNextAt);
            ctx.report(RunReport.empty().withSummary("campaign", campaignId).withSummary("status", campaign.status().dbValue()));
            return;
        }
        RelayRoute route = tables.inTransaction(c -> tables.campaigns().route(c, campaignId))
                .orElse(deps.relays().defaultRoute());
        if (heldBack(ctx, campaign, route)) {
            return;
        }
        AbGate.Phase phase = new AbGate(deps.dataSource()).phase(campaignId, ctx.clock().instant());
        if (phase instanceof AbGate.Phase.Waiting waiting) {
            AbRun.hold(ctx, campaign, waiting);
            return;
        }
        Optional<AbState> ab = AbRun.state(phase);
        // One read of the pins per run; the versions themselves are compiled once per process.
        PinnedTemplates.Pins pins = deps.templates().pins(campaignId);
        LoadResult loaded = TemplateForRun.load(deps, campaign, pins.campaign(), ctx.clock().instant());
        if (loaded instanceof LoadResult.Invalid invalid) {
            selfPause(ctx, campaignId, pins.campaign().isPresent()
                    ? "template " + campaign.template() + " does not compile: " + invalid.problems().get(0)
                    : invalid.problems().get(0).message());
            return;
        }
        CompiledTemplate template = ((LoadResult.Loaded) loaded).template();
        AbRun.Compiled variants = ab.isEmpty() ? new AbRun.Compiled(List.of(), Optional.empty())
                : AbRun.compile(deps, campaign, ab.get(), template, pins.variants());
        if (variants.problem().isPresent()) {
            selfPause(ctx, campaignId, variants.problem().get());
            return;
        }
        Optional<String> unknown = deps.relays().unknownIn(route);
        if (unknown.isPresent()) {
            // A relay taken out of the configuration since the campaign was created: sending through
            // the others would change its split without anyone deciding so.
            selfPause(ctx, campaignId, "its relay route " + route.text() + " cannot be used: " + unknown.get());
            return;
        }
        List<Relay> relays = deps.relays().of(route);
        Instant now = ctx.clock().instant();
        // The slot's deadline, cut at the end of the send window and at the expiry.
        Instant deadline = SendCalendar.deadline(campaign, ctx.deadline(), now);
        if (!now.isBefore(deadline)) {
            // Started after its window closed (a late tick): sending now would only overrun.
            ctx.idle();
            ctx.report(RunReport.empty().withSummary("campaign", campaignId).withSummary("end", "deadline")
                    .withSummary("why", "the run started at or after its deadline " + deadline + " (a late tick, or the "
                            + "send window or the expiry came first)"));
            return;
        }
        // Until a winner is picked, only the test share (the recipients given a variant) is claimed.
        boolean testShareOnly = phase instanceof AbGate.Phase.TestShare;
        new SendRun(new RunScope(ctx, campaign, deps.settings(), tables, deps.events()), deps,
                AbRun.messages(deps, campaign, template, ab, variants.templates(), ctx.clock()), testShareOnly, route, relays,
                deadline, cpu).drain();
    }

    /**
     * Pauses the running campaign for {@code reason} (its template or route can no longer be used),
     * says so in one warning line and in the run's summary. A campaign paused or cancelled meanwhile
     * by the operator keeps the operator's state, and nothing is logged.
     */
    private void selfPause(RunContext ctx, long campaignId, String reason) throws SQLException {
        boolean paused = tables.inTransaction(c -> tables.campaigns().transition(c, campaignId,
                CampaignTransition.SELF_PAUSE, reason, ctx.clock().instant()));
        if (paused) {
            log.warn("Campaign {} paused: {}", campaignId, reason);
            ctx.report(RunReport.empty().withSummary("campaign", campaignId).withSummary("paused", reason));
        } else {
            ctx.idle();
            ctx.report(RunReport.empty().withSummary("campaign", campaignId).withSummary("status", "not running"));
        }
    }

    /**
     * What the calendar says before anything is claimed: an expired campaign expires what it has
     * left and completes; outside its send window, or with the daily cap of every relay of its
     * route used up, the run claims nothing, says why, and the next run is moved to the slot where
     * that may change. True when the run ends here.
     */
    private boolean heldBack(RunContext ctx, Campaign campaign, RelayRoute route) throws SQLException {
        Instant now = ctx.clock().instant();
        long id = campaign.id();
        if (campaign.expiredAt(now)) {
            Expiry.Result r = new Expiry(deps.dataSource()).expire(ctx, id, now);
            if (r.completed()) {
                ctx.disableAfterThisRun();
            }
            log.info("Campaign {} expired at {}: {} recipient(s) expired unsent{}", id, campaign.expireAt().get(),
                    r.expired(), r.completed() ? "; campaign completed" : "");
            ctx.report(RunReport.empty().withSummary("campaign", id).withSummary("end", "expired")
                    .withSummary("expired", r.expired()).withSummary("completed", r.completed()));
            return true;
        }
        Optional<String> closed = calendar.windowClosed(campaign, now);
        if (closed.isPresent()) {
            campaign.windows().flatMap(w -> w.nextOpen(now)).ifPresent(at -> NextRun.skipTo(ctx, campaign, NextRun.slotHolding(at, ctx.interval())));
            ctx.idle();
            ctx.report(RunReport.empty().withSummary("campaign", id).withSummary("end", "window_closed")
                    .withSummary("held_back", closed.get()));
            return true;
        }
        SendCalendar.CapsReached capped = tables.inTransaction(c -> calendar.capsReached(c, route, now));
        if (capped.all()) {
            NextRun.skipTo(ctx, campaign, NextRun.slotAtOrAfter(calendar.endOfDay(now), ctx.interval()));
            ctx.idle();
            ctx.report(RunReport.empty().withSummary("campaign", id).withSummary("end", RunEndReason.DAILY_CAP)
                    .withSummary("held_back", String.join("; ", capped.phrases())));
            return true;
        }
        return false;
    }

    /**
     * Recipients an earlier run left in flight become unknown, and the campaign's in-flight row is
     * this run's; a scheduled campaign whose time has come begins.
     */
    private Optional<Campaign> begin(RunContext ctx, long campaignId) throws SQLException {
        Instant now = ctx.clock().instant();
        return tables.inTransaction(c -> {
            Optional<Campaign> campaign = tables.campaigns().find(c, campaignId);
            if (campaign.isEmpty()) {
                return campaign;
            }
            // Runs of one task never overlap: what is in flight now was left by a run that died or
            // failed. Fenced by the lease, so a run that stalled before this point and lost the task
            // cannot take the in-flight row from the run that holds it now.
            if (!ctx.extendLease(c)) {
                c.rollback();
                throw new IllegalStateException("run " + ctx.runToken() + " lost its lease before it began");
            }
            Optional<InFlightTable.Held> left = tables.inFlight().lock(c, campaignId);
            if (left.isPresent() && !left.get().recipientIds().isEmpty()) {
                int unknown = tables.results().markUnknown(c, campaignId, left.get().recipientIds(),
                        left.get().runToken(), now);
                if (unknown > 0) {
                    log.warn("Run {} ended while sending; {} recipient(s) marked unknown (never resent automatically)",
                            left.get().runToken().orElse("(unknown)"), unknown);
                }
            }
            tables.inFlight().hold(c, campaignId, ctx.runToken(), now);
            tables.results().forgetSentBefore(c, campaignId, now.minus(SentSecondTable.KEPT));
            if (campaign.get().status() == CampaignStatus.SCHEDULED
                    && campaign.get().startAt().map(at -> !at.isAfter(now)).orElse(true)) {
                tables.campaigns().transition(c, campaignId, CampaignTransition.BEGIN, null, now);
                campaign = tables.campaigns().find(c, campaignId);
            }
            return campaign;
        });
    }
}
