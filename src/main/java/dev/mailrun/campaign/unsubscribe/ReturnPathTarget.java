package dev.mailrun.campaign.unsubscribe;

/** The send a verified return-path (VERP) token stands for. */
public record ReturnPathTarget(long campaignId, long recipientId) {}
