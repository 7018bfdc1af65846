package dev.mailrun.campaign.unsubscribe;

/** Who a verified unsubscribe token speaks for. */
public record UnsubscribeTarget(long campaignId, long recipientId, String address) {}
