package dev.mailrun.mail.feedback;

/**
 * The campaign and recipient ids mailrun puts into every message as provider metadata and the
 * provider echoes back in its events. Unsigned: whoever acts on them checks that the recipient's
 * address is the one the event names.
 */
public record SendIds(long campaignId, long recipientId) {

    public SendIds {
        if (campaignId < 1 || recipientId < 1) {
            throw new IllegalArgumentException("ids must be positive, got campaign " + campaignId + " recipient " + recipientId);
        }
    }
}
