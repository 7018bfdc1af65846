package dev.mailrun.campaign.bounce;

/** The send a bounce was traced to. */
record MatchedRecipient(long id, long campaignId, String email, String status) {}
