package dev.mailrun.campaign.store;

/** A recipient held by a run (status sending): what is needed to render and send its message. */
public record ClaimedRecipient(long id, String email, String name, String fieldsJson, int attempts) {}
