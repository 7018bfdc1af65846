package dev.mailrun.campaign.send.deliver;

import java.util.Set;

/**
 * The tracking URLs a tracked campaign's messages carry (docs/TRACKING.md): signed, per recipient.
 * {@link #NONE} when tracking.enabled is off.
 */
public interface TrackingLinks {

    TrackingLinks NONE = new TrackingLinks() {
        @Override
        public boolean enabled() {
            return false;
        }

        @Override
        public Set<String> excludedDomains() {
            return Set.of();
        }

        @Override
        public String click(long campaignId, long recipientId, int linkIndex) {
            throw new IllegalStateException("tracking is not enabled");
        }

        @Override
        public String open(long campaignId, long recipientId) {
            throw new IllegalStateException("tracking is not enabled");
        }
    };

    /** Whether tracking.enabled is on: without it no campaign is tracked, whatever it was created with. */
    boolean enabled();

    /** Links to these domains are never rewritten (tracking.exclude-domains). */
    Set<String> excludedDomains();

    /** {@code <base>/c/<token>} for link {@code linkIndex} of the recipient's message. */
    String click(long campaignId, long recipientId, int linkIndex);

    /** {@code <base>/o/<token>.gif} for the recipient's message. */
    String open(long campaignId, long recipientId);
}
