package dev.mailrun.campaign.bounce;

import java.util.List;

/**
 * What one bounce-processing run did. Counts are per report (one message may report several
 * recipients), except {@code messagesRead}.
 */
public record BounceSummary(int messagesRead, int hard, int soft, int complaints, int refused, int unrecognised,
                            int unmatched, int duplicates, List<Long> pausedCampaigns) {

    public BounceSummary {
        pausedCampaigns = List.copyOf(pausedCampaigns);
    }
}
