package dev.mailrun.campaign.report;

import dev.mailrun.campaign.model.RunCounts;
import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.BounceRate;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.ComplaintRate;
import dev.mailrun.campaign.model.ErrorCount;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.store.RelayStateTable;
import dev.mailrun.campaign.variant.AbReport;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code campaign status} and the status page show: counts by status, rates, ETA, the runs and
 * the hard-bounce rate against the breaker's threshold.
 *
 * @param configuredRate  messages/s the campaign's route is configured for: the relays that take
 *                        traffic now, each at its weight's share ({@link dev.mailrun.campaign.send.pace.RouteRate}),
 *                        capped by the campaign's {@code --rate}; 0 = no limit
 * @param currentRate     messages/s sent over the last minute; empty when nothing was sent in it
 * @param averageRate     messages/s over all runs' busy time
 * @param eta             when it is expected to be done, holds included; {@link Eta#NONE} for a draft, a
 *                        finished campaign and one with nobody left
 * @param runs            the last runs, newest first (at most 10: what {@code status} prints)
 * @param history         every run of the campaign's task still in the run history (at most 200),
 *                        newest first; decisions not to run (skipped, misfired) are left out
 * @param slotLength      the campaign task's interval: each run's slot is [scheduled for, + slotLength)
 * @param bounceThreshold {@code bounce.pause-rate}: a rate above it pauses the campaign
 * @param relays          the relays of the campaign's route with their states and counts
 * @param heldBackBy      what holds the campaign back right now, as short phrases (window closed
 *                        until …, daily cap of relay … reached …, expired …, start time …, relay a down
 *                        until … (why), unsubscribe.secret is not set …, domain gmail capped at 5/s, relay
 *                        default rate adapted to 12.5/s), waiting for the A/B decision until …; empty when nothing
 *                        does ({@link CampaignOutlook})
 * @param engagement      opens and clicks, people and machines apart; empty when the campaign is not tracked
 * @param ab              the campaign's A/B test per variant; empty when it has none
 * @param attachments     the files every message of the campaign carries (name, type, size), in order
 * @param complaintRate   complaints against sends, as the complaint breaker reads them
 * @param complaintThreshold {@code bounce.complaint-pause-rate} when the reports were given it: a rate
 *                        above it pauses the campaign
 */
public record CampaignReport(Campaign campaign, Map<RecipientStatus, Long> counts, double configuredRate,
                             Optional<Double> currentRate, Optional<Double> averageRate, Eta eta,
                             List<RunLine> runs, List<ErrorCount> topErrors, Instant at, List<RunLine> history,
                             Optional<Duration> slotLength, BounceRate bounceRate, double bounceThreshold,
                             List<RelayLine> relays, List<String> heldBackBy, Optional<Engagement> engagement,
                             Optional<AbReport> ab, List<Attachment.Summary> attachments, ComplaintRate complaintRate,
                             Optional<Double> complaintThreshold) {

    /** Not tracked, without an A/B test or attachments. */
    public CampaignReport(Campaign campaign, Map<RecipientStatus, Long> counts, double configuredRate,
                          Optional<Double> currentRate, Optional<Double> averageRate, Eta eta,
                          List<RunLine> runs, List<ErrorCount> topErrors, Instant at, List<RunLine> history,
                          Optional<Duration> slotLength, BounceRate bounceRate, double bounceThreshold,
                          List<RelayLine> relays, List<String> heldBackBy) {
        this(campaign, counts, configuredRate, currentRate, averageRate, eta, runs, topErrors, at, history, slotLength,
                bounceRate, bounceThreshold, relays, heldBackBy, Optional.empty(), Optional.empty(), List.of(),
                new ComplaintRate(campaign.id(), 0, 0), Optional.empty());
    }

    /** Without per-relay figures, and held back by nothing. */
    public CampaignReport(Campaign campaign, Map<RecipientStatus, Long> counts, double configuredRate,
                          Optional<Double> currentRate, Optional<Double> averageRate, Eta eta,
                          List<RunLine> runs, List<ErrorCount> topErrors, Instant at, List<RunLine> history,
                          Optional<Duration> slotLength, BounceRate bounceRate, double bounceThreshold) {
        this(campaign, counts, configuredRate, currentRate, averageRate, eta, runs, topErrors, at, history, slotLength,
                bounceRate, bounceThreshold, List.of(), List.of());
    }

    /**
     * One relay of the campaign's route (or one that took some of its recipients before the route
     * changed): its weight in the route (empty: not on it), its state now, and the campaign's
     * recipients whose last attempt it took, by outcome — deferred ones wait for a retry.
     *
     * @param downUntil empty: up
     * @param probeDue  the relay is still marked down but its back-off has passed: the next run that
     *                  sends through it probes it (it is not shown as down)
     */
    public record RelayLine(String relay, Optional<Integer> weight, Optional<Instant> downUntil, Optional<String> reason,
                            long sent, long failed, long deferred, boolean probeDue) {

        public RelayLine(String relay, Optional<Integer> weight, Optional<Instant> downUntil, Optional<String> reason,
                         long sent, long failed, long deferred) {
            this(relay, weight, downUntil, reason, sent, failed, deferred, false);
        }

        /** The line of a relay whose row reads {@code state} at {@code now}. */
        public static RelayLine of(String relay, Optional<Integer> weight, RelayStateTable.State state, Instant now,
                                   long sent, long failed, long deferred) {
            return new RelayLine(relay, weight, state.downUntil(), state.downUntil().flatMap(u -> state.reason()), sent,
                    failed, deferred, state.probeDue(now));
        }

        /** "up", "down until 2026-11-24T10:00:30Z", or "probe due (back-off ended 2026-11-24T10:00:30Z)". */
        public String state() {
            if (probeDue) {
                return "probe due (back-off ended " + downUntil.orElseThrow() + ")";
            }
            return downUntil.map(u -> "down until " + u).orElse("up");
        }

        /** "up", "down" or "probe_due", for the JSON report. */
        public String stateName() {
            return probeDue ? "probe_due" : downUntil.isPresent() ? "down" : "up";
        }
    }

    public CampaignReport {
        relays = List.copyOf(relays);
        heldBackBy = List.copyOf(heldBackBy);
        counts = Map.copyOf(counts);
        runs = List.copyOf(runs);
        topErrors = List.copyOf(topErrors);
        history = List.copyOf(history);
    }

    /**
     * One run of the campaign's task.
     *
     * @param scheduledFor the start of its slot
     * @param deadline     when it had to be done (slot end less the safety margin)
     */
    /**
     * One row of the run history.
     *
     * @param items       the messages the run tried (sent + failed + deferred)
     * @param counts      what the run did with the recipients it took, each counted once; empty for a
     *                    row without them (a decision not to run, a run that claimed nothing)
     * @param windowShare the items the run sent over what the allowed rate permits in a whole window
     *                    (slot to next slot); empty for decisions and when the rate is unlimited
     * @param gap         how long the task was free before this run (previous release to this claim)
     * @param waited      how long the tick waited at the slot for the previous run to release the task
     * @param margin      the safety margin this run's deadline used
     */
    public record RunLine(Instant startedAt, Optional<Instant> finishedAt, String outcome, long items,
                          Optional<RunCounts> counts, Optional<Duration> duration, Optional<Double> utilisation, Optional<Duration> overrun,
                          Optional<String> error, Optional<Instant> scheduledFor, Optional<Instant> deadline,
                          Optional<Double> windowShare, Optional<Duration> gap, Optional<Duration> waited,
                          Optional<Duration> margin) {

        /** Messages per second while it ran; empty while running or when it took no time. */
        public Optional<Double> rate() {
            return duration.filter(d -> !d.isZero()).map(d -> items / (d.toMillis() / 1000.0));
        }
    }

    /** Whether the hard-bounce rate is above {@code bounce.pause-rate}; never before the first send. */
    public boolean hardBouncesOver() {
        return bounceRate.sends() > 0 && bounceRate.rate() > bounceThreshold;
    }

    /**
     * Whether the complaint rate (complaints per delivered send) is above {@code bounce.complaint-pause-rate};
     * never before the first delivered send, nor when the reports were not given the threshold. Every
     * view of the rate (the console, the status page, the JSON report) asks this one method.
     */
    public boolean complaintsOver() {
        return complaintRate.sends() > 0 && complaintThreshold.map(t -> complaintRate.rate() > t).orElse(false);
    }

    public long total() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    public long remaining() {
        return counts.get(RecipientStatus.PENDING) + counts.get(RecipientStatus.RETRY) + counts.get(RecipientStatus.SENDING);
    }
}
