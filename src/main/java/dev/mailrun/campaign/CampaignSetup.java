package dev.mailrun.campaign;

import dev.mailrun.campaign.model.WebVersionMode;
import java.util.List;

/**
 * What the configuration lets campaigns do, read once where {@link Campaigns} is wired: the rules that
 * depend on it are the campaign service's, so the command line, the API and the console only pass on
 * what it refuses.
 *
 * @param missingForSending the settings no worker sends without that are not set, by their configuration
 *                          keys ({@code unsubscribe.secret}, {@code unsubscribe.base-url}): while one is
 *                          missing, no campaign starts
 * @param trackingEnabled   whether engagement tracking is on (tracking.enabled): only then is a campaign
 *                          created tracked
 * @param repliesCounted    whether the replies mailbox is read (replies.imap.host): only then may an A/B
 *                          test pick its winner by replies
 * @param webVersion        what the web version pages of a campaign without a setting of its own show
 *                          (webversion.personal)
 */
public record CampaignSetup(List<String> missingForSending, boolean trackingEnabled, boolean repliesCounted,
                            WebVersionMode webVersion) {

    public CampaignSetup {
        missingForSending = List.copyOf(missingForSending);
    }

    /** With personal web version pages by default, as webversion.personal's default. */
    public CampaignSetup(List<String> missingForSending, boolean trackingEnabled, boolean repliesCounted) {
        this(missingForSending, trackingEnabled, repliesCounted, WebVersionMode.PERSONAL);
    }
}
