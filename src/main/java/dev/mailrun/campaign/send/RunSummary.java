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

    /**
     * Logs the run and hands its report to the scheduler. The counts are this run's, each recipient
     * once: {@code sent}, {@code failed} and {@code deferred} (tried, with that result), {@code suppressed}
     * (found suppressed by a claim, never tried) and {@code handed_back} (claimed and returned to the
     * queue untried: the batch no longer fit, the relay could not be reached, a "too fast" reply). The
     * run's items are the messages it tried: sent + failed + deferred. A run that ended because every
     * relay of its route was down is {@code blocked}, not a success.
     */
    void report(RunContext ctx, TimeboxReport report) {
        String endReason = this.endReason.orElse(report.endReason().name().toLowerCase(Locale.ROOT));
        long sent = end.sent() - start.sent();
        long failed = end.failed() - start.failed();
        long deferred = end.retried() - start.retried();
        long suppressed = end.suppressed() - start.suppressed();
        long handedBack = end.released() - start.released();
        long tried = sent + failed + deferred;
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("campaign", campaignId);
        summary.put("sent", sent);
        summary.put("failed", failed);
        summary.put("deferred", deferred);
        summary.put("suppressed", suppressed);
        summary.put("handed_back", handedBack);
        summary.put("claimed", claimed);
        summary.put("end", endReason);
        summary.put("completed", completed);
        if (allowedRate > 0) {
            // Messages this run tried over what the allowed rate permits in the whole window (slot
            // to next slot): what is missing is the gap between runs and any idle time.
            double share = tried / (allowedRate * ctx.interval().toMillis() / 1000.0);
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
        log.info("run task={} campaign={} sent={} failed={} deferred={} suppressed={} handed_back={} duration={}ms "
                        + "utilisation={} overrun={}ms end={}{}{}",
                ctx.taskName(), campaignId, sent, failed, deferred, suppressed, handedBack,
                Duration.between(report.started(), report.ended()).toMillis(),
                String.format(Locale.ROOT, "%.2f", report.utilisation()), report.overrun().toMillis(), endReason,
                why.filter(w -> !unreachable.equals(Optional.of(w))).map(w -> " why=\"" + w + "\"").orElse(""),
                pace.logText());
        if (endReason.equals(RunEndReason.RELAYS_DOWN)) {
            ctx.blocked();
        }
        ctx.report(new RunReport(report.batches(), tried, report.utilisation(), report.overrun(), summary));
    }
}
