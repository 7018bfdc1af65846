package dev.mailrun.campaign.send;

import dev.mailrun.campaign.send.pace.PaceSummary;
import dev.mailrun.campaign.send.scope.SendCounters;
import dev.mailrun.scheduler.RunContext;
import dev.mailrun.scheduler.RunReport;
import dev.mailrun.timebox.TimeboxReport;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a run did, for the run history ({@code task_run.summary}) and the one log line per run.
 *
 * @param start       the counters when the run started; the log line shows this run's part
 * @param end         the counters after its last flush
 * @param claimed     recipients the run took into its batches
 * @param paused      why this run paused the campaign, if it did
 * @param unreachable why the relay could not be reached, if it could not
 * @param pace        what held the pace back: "too fast" replies, adapted rates, paced domains
 * @param endReason   why the run ended ({@link RunEndReason}); empty: the timebox's own reason
 * @param allowedRate the campaign's allowed rate (messages per second), 0 when unlimited: the run history
 *                    shows the share of the window the run sent at that rate
 * @param why         what the end reason needs said with it (which relays are down, what a batch that
 *                    tried nothing had)
 */
record RunSummary(long campaignId, SendCounters start, SendCounters end, long claimed, boolean completed,
                  Optional<String> paused, Optional<String> unreachable, Optional<String> endReason, PaceSummary pace,
                  double allowedRate, Optional<String> why) {

    RunSummary(long campaignId, SendCounters start, SendCounters end, long claimed, boolean completed,
               Optional<String> paused, Optional<String> unreachable, Optional<String> endReason) {
        this(campaignId, start, end, claimed, completed, paused, unreachable, endReason, PaceSummary.NONE, 0,
                Optional.empty());
    }

    RunSummary withPace(PaceSummary value) {
        return new RunSummary(campaignId, start, end, claimed, completed, paused, unreachable, endReason, value,
                allowedRate, why);
    }

    RunSummary withAllowedRate(double value) {
        return new RunSummary(campaignId, start, end, claimed, completed, paused, unreachable, endReason, pace, value,
                why);
    }

    RunSummary withWhy(Optional<String> value) {
        return new RunSummary(campaignId, start, end, claimed, completed, paused, unreachable, endReason, pace,
                allowedRate, value);
    }

    RunSummary(long campaignId, SendCounters start, SendCounters end, long claimed, boolean completed,
               Optional<String> paused, Optional<String> unreachable) {
        this(campaignId, start, end, claimed, completed, paused, unreachable, Optional.empty());
    }

    private static final Logger log = LoggerFactory.getLogger(RunSummary.class);

    /** Logs the run and hands its report to the scheduler. */
    void report(RunContext ctx, TimeboxReport report) {
        String endReason = this.endReason.orElse(report.endReason().name().toLowerCase(Locale.ROOT));
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("campaign", campaignId);
        summary.put("sent", end.sent());
        summary.put("failed", end.failed());
        summary.put("retried", end.retried());
        summary.put("suppressed", end.suppressed());
        summary.put("claimed", claimed);
        summary.put("end", endReason);
        summary.put("completed", completed);
        if (allowedRate > 0) {
            // Messages this run handed to the relay over what the allowed rate permits in the whole
            // window (slot to next slot): what is missing is the gap between runs and any idle time.
            double share = report.items() / (allowedRate * ctx.interval().toMillis() / 1000.0);
            summary.put("windowShare", Math.round(share * 10_000) / 10_000.0);
        }
        paused.ifPresent(reason -> {
            summary.put("paused", reason);
            log.warn("Campaign {} paused: {}", campaignId, reason);
        });
        unreachable.ifPresent(reason -> {
            summary.put("relay_unreachable", reason);
            log.warn("Campaign {}: no relay of its route can take messages now. {}. Nobody was charged an attempt; "
                    + "a later run sends again once a relay is probed back", campaignId, reason);
        });
        why.filter(w -> !unreachable.equals(Optional.of(w))).ifPresent(w -> summary.put("why", w));
        pace.addTo(summary);
        log.info("run task={} campaign={} sent={} failed={} retried={} duration={}ms utilisation={} overrun={}ms end={}{}{}",
                ctx.taskName(), campaignId, end.sent() - start.sent(), end.failed() - start.failed(),
                end.retried() - start.retried(), Duration.between(report.started(), report.ended()).toMillis(),
                String.format(Locale.ROOT, "%.2f", report.utilisation()), report.overrun().toMillis(), endReason,
                why.filter(w -> !unreachable.equals(Optional.of(w))).map(w -> " why=\"" + w + "\"").orElse(""),
                pace.logText());
        ctx.report(new RunReport(report.batches(), report.items(), report.utilisation(), report.overrun(), summary));
    }
}
