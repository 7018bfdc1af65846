package dev.mailrun.campaign;

import dev.mailrun.campaign.model.ErrorCount;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.RecipientStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code campaign status} shows: counts by status, rates, ETA and the last runs.
 *
 * @param currentRate messages/s sent by the last run that sent anything
 * @param averageRate messages/s over all runs' busy time
 * @param eta         time to send what is pending at the configured rate; empty when unlimited or done
 */
public record CampaignReport(Campaign campaign, Map<RecipientStatus, Long> counts, double configuredRate,
                             Optional<Double> currentRate, Optional<Double> averageRate, Optional<Duration> eta,
                             List<RunLine> runs, List<ErrorCount> topErrors, Instant at) {

    /** How many recipients (failed or waiting for a retry) share one last error. */

    /** One run of the campaign's task, newest first. */
    public record RunLine(Instant startedAt, Optional<Instant> finishedAt, String outcome, long items,
                          Optional<Duration> duration, Optional<Double> utilisation, Optional<Duration> overrun,
                          Optional<String> error) {}

    public long total() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    public long remaining() {
        return counts.get(RecipientStatus.PENDING) + counts.get(RecipientStatus.RETRY) + counts.get(RecipientStatus.SENDING);
    }
}
