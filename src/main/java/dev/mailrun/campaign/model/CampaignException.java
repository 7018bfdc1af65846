package dev.mailrun.campaign.model;

/** An operator's request that cannot be carried out as asked (unknown id, wrong state); the message says why. */
public final class CampaignException extends RuntimeException {

    public CampaignException(String message) {
        super(message);
    }
}
