package dev.mailrun.campaign.model;

/** A campaign's complaints against its delivered sends. */
public record ComplaintRate(long campaignId, long complaints, long sends) {

    public double rate() {
        return sends == 0 ? 0 : (double) complaints / sends;
    }
}
