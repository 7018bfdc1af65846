package dev.mailrun.app;

import dev.mailrun.app.config.TrackingConfig;
import dev.mailrun.campaign.send.deliver.TrackingLinks;
import dev.mailrun.campaign.tracking.TrackingSettings;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.TrackingTokens;
import java.util.Set;

/**
 * The tracking URLs messages carry, made with the unsubscribe secret's key under tracking's own
 * purpose ({@link TrackingTokens}) on {@code tracking.base-url}; {@link TrackingLinks#NONE} while
 * tracking.enabled is off.
 */
final class TrackingWiring {

    private TrackingWiring() {
    }

    static TrackingLinks links(TrackingConfig config, String unsubscribeSecret) {
        if (config.settings().isEmpty()) {
            return TrackingLinks.NONE;
        }
        TrackingSettings settings = config.settings().get();
        TrackingTokens tokens = new TrackingTokens(SigningKey.of(unsubscribeSecret));
        String base = settings.baseUrl().toString();
        return new TrackingLinks() {
            @Override
            public boolean enabled() {
                return true;
            }

            @Override
            public Set<String> excludedDomains() {
                return settings.excludeDomains();
            }

            @Override
            public String click(long campaignId, long recipientId, int linkIndex) {
                return base + TrackingTokens.CLICK_PREFIX + tokens.clickToken(campaignId, recipientId, linkIndex);
            }

            @Override
            public String open(long campaignId, long recipientId) {
                return base + TrackingTokens.OPEN_PREFIX + tokens.openToken(campaignId, recipientId) + TrackingTokens.OPEN_SUFFIX;
            }
        };
    }
}
