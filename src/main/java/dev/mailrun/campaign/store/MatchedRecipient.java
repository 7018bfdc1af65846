package dev.mailrun.campaign.store;

/** The send a bounce was traced to. */
public record MatchedRecipient(long id, long campaignId, String email, String status) {}
