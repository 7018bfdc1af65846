package dev.mailrun.campaign.model;

/** A campaign's hard bounces against its sends. */
public record BounceRate(long campaignId, long hardBounces, long sends) {

    public double rate() {
        return sends == 0 ? 0 : (double) hardBounces / sends;
    }
}
