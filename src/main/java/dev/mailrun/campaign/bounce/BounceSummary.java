package dev.mailrun.campaign.bounce;

import java.util.List;

/**
 * What one bounce-processing run did. Bounce counts are per report (one message may report several
 * recipients); {@code messagesRead} counts every message, and the unsubscribe counts one per request.
 *
 * @param unsubscribes        unsubscribe requests sent by mail whose token verified (the address is
 *                            suppressed now, or was already)
 * @param invalidUnsubscribes requests whose token did not verify: nothing changed, left for review
 */
record BounceSummary(int messagesRead, int hard, int soft, int complaints, int refused, int unrecognised,
                            int unmatched, int duplicates, int unsubscribes, int invalidUnsubscribes,
                            List<Long> pausedCampaigns) {

    BounceSummary {
        pausedCampaigns = List.copyOf(pausedCampaigns);
    }
}
