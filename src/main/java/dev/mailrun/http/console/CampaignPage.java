package dev.mailrun.http.console;

import dev.mailrun.campaign.CampaignRun;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.WebVersionSetting;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.report.CampaignReport;
import dev.mailrun.campaign.store.ContentPinTable;
import dev.mailrun.campaign.model.RunCounts;
import dev.mailrun.campaign.model.WebVersionMode;
import dev.mailrun.http.status.StatusCharts;
import io.pebbletemplates.pebble.extension.escaper.SafeString;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * {@code GET /console/campaigns/<id>}: one campaign's counts, the status page's charts of it
 * ({@link StatusCharts}), what it sends (the pinned template version and every move of it), runs, relays, holds, hard-bounce and complaint rates against their thresholds,
 * its A/B variants and tracking figures where it has them, and the buttons for what may be done to it
 * now — those the session's scopes allow; the actions check again ({@link CampaignActions}), a button is
 * no permission. While the campaign is running or scheduled the page reloads itself every
 * {@link #REFRESH} (a {@code <meta http-equiv="refresh">}: no script); it holds no field to fill in
 * then — pausing and sending the failed again ask for their values on pages of their own — so a
 * reload loses nothing typed. A draft's page sets what its web version pages show ({@link #setWebVersion}).
 */
final class CampaignPage {

    private static final int RUNS = 20;
    /** As often as the status page reloads. */
    static final Duration REFRESH = Duration.ofSeconds(10);

    private final ConsoleServices services;
    private final Views views;

    CampaignPage(ConsoleServices services, Views views) {
        this.services = services;
        this.views = views;
    }

    Answer show(ConsoleRequest r) throws Exception {
        return show(r, 200, Map.of());
    }

    /**
     * Sets what a draft's web version pages show ({@link WebVersionSetting#set}); a bad value is shown beside
     * the field, a campaign no longer a draft (or scheduled) is refused in one line.
     */
    Answer setWebVersion(ConsoleRequest r) throws Exception {
        long id = r.id(0);
        try {
            WebVersionMode mode = services.api().campaigns().webVersions().set(id, r.form().getOrDefault("webVersion", ""));
            r.session().flash(false, "Campaign " + id + "'s web version pages are " + mode.word() + ".");
            return Answer.redirect(ConsoleHandler.PREFIX + "/campaigns/" + id);
        } catch (InvalidFields e) {
            return show(r, 422, MessageFields.errors(e));
        } catch (CampaignException e) {
            throw new Refusal("/campaigns/" + id, e.getMessage() + ".");
        }
    }

    /** The page, {@code fieldErrors} beside the fields they name (a draft's web version). */
    private Answer show(ConsoleRequest r, int status, Map<String, String> fieldErrors) throws Exception {
        long id = r.id(0);
        CampaignReport report;
        try {
            report = services.api().reports().report(id);
        } catch (CampaignException e) {
            return Answer.error(404, e.getMessage() + ".");
        }
        Campaign c = report.campaign();
        Map<String, Object> model = new HashMap<>();
        model.put("c", Figures.summary(report));
        model.put("runs", runs(services.api().campaigns().runs(id, RUNS)));
        model.put("relays", report.relays().stream().map(l -> Map.<String, Object>of("relay", l.relay(),
                "weight", l.weight().map(String::valueOf).orElse("-"), "state", l.state(), "reason", l.reason().orElse(""),
                "sent", l.sent(), "failed", l.failed(), "deferred", l.deferred())).toList());
        model.put("bounceRate", Figures.percent(report.bounceRate().rate()));
        model.put("bounceThreshold", Figures.percent(report.bounceThreshold()));
        model.put("bounceOver", report.hardBouncesOver());
        model.put("hardBounces", report.bounceRate().hardBounces());
        model.put("complaints", report.complaintRate().complaints());
        model.put("complaintRate", Figures.percent(report.complaintRate().rate()));
        model.put("complaintThreshold", report.complaintThreshold().map(Figures::percent).orElse(""));
        model.put("complaintOver", report.complaintsOver());
        model.put("ab", report.ab().map(Figures::ab).orElse(null));
        model.put("engagement", report.engagement().map(Figures::engagement).orElse(null));
        model.put("errors", report.topErrors().stream().map(e -> Map.<String, Object>of("count", e.count(),
                "status", e.status(), "error", e.error())).toList());
        model.put("can", can(c.status(), report));
        List<ContentPinTable.Change> changes = services.api().campaigns().contentHistory(id);
        model.put("pinned", CampaignContentPage.current(changes).orElse(null));
        model.put("history", CampaignContentPage.history(changes));
        model.put("charts", new SafeString(StatusCharts.html(report)));
        model.put("refresh", live(c.status()) ? REFRESH.toSeconds() : null);
        WebVersionSetting pages = services.api().campaigns().webVersions();
        model.put("webVersion", Map.of("mode", pages.of(c).word(), "own", c.webVersion().isPresent(),
                "byDefault", pages.byDefault().word()));
        model.put("fieldErrors", fieldErrors);
        return new Answer.Page(status, views.render("campaign", r.session(), model), null);
    }

    /** Which actions the campaign's state allows now; the page shows them to a session with campaigns:write. */
    static Map<String, Boolean> can(CampaignStatus status, CampaignReport report) {
        long unknown = report.counts().get(RecipientStatus.UNKNOWN);
        long failed = report.counts().get(RecipientStatus.FAILED);
        return Map.of("start", status == CampaignStatus.DRAFT,
                "pause", status == CampaignStatus.RUNNING || status == CampaignStatus.SCHEDULED,
                "resume", status == CampaignStatus.PAUSED,
                "cancel", !status.isFinal(),
                "requeueUnknown", unknown > 0 && status != CampaignStatus.CANCELLED,
                "requeueFailed", failed > 0 && status != CampaignStatus.CANCELLED,
                "content", CampaignContentPage.movable(status));
    }

    /** Whether the campaign's figures move by themselves: it is running or waits for its start. */
    static boolean live(CampaignStatus status) {
        return status == CampaignStatus.RUNNING || status == CampaignStatus.SCHEDULED;
    }

    /** Each run's recipients counted once by what became of them; "-" where the run has no counts (a decision, a run that claimed nothing). */
    private static List<Map<String, Object>> runs(List<CampaignRun> runs) {
        return runs.stream().map(run -> {
            Map<String, Object> m = new HashMap<>();
            m.put("id", run.id());
            m.put("startedAt", run.startedAt().toString());
            m.put("finishedAt", run.finishedAt().map(Instant::toString).orElse("running"));
            m.put("outcome", run.outcome());
            m.put("sent", count(run, RunCounts::sent));
            m.put("suppressed", count(run, RunCounts::suppressed));
            m.put("failed", count(run, RunCounts::failed));
            m.put("deferred", count(run, RunCounts::deferred));
            m.put("handedBack", count(run, RunCounts::handedBack));
            m.put("error", run.error().orElse(""));
            return m;
        }).toList();
    }

    private static String count(CampaignRun run, ToLongFunction<RunCounts> which) {
        return run.counts().map(c -> String.valueOf(which.applyAsLong(c))).orElse("-");
    }
}
