package dev.mailrun.mail.feedback;

/**
 * The campaign and recipient ids mailrun puts into every message as provider metadata and the
 * provider echoes back in its events. Unsigned: whoever acts on them checks that the recipient's
 * address is the one the event names.
 *
 * <p>Recipient id {@value #TEST_RECIPIENT} marks a test send ({@code mailrun send-test}): no
 * recipient row has it, so nothing a provider reports about such a message may touch a campaign or
 * the suppression list.
 */
public record SendIds(long campaignId, long recipientId) {

    /** The recipient id of a test send. */
    public static final long TEST_RECIPIENT = 0;

    public SendIds {
        if (campaignId < 1 || recipientId < TEST_RECIPIENT) {
            throw new IllegalArgumentException("ids must be positive (recipient 0 for a test send), got campaign "
                    + campaignId + " recipient " + recipientId);
        }
    }

    /** The ids of a test send of campaign {@code campaignId}. */
    static SendIds testSend(long campaignId) {
        return new SendIds(campaignId, TEST_RECIPIENT);
    }

    public boolean isTestSend() {
        return recipientId == TEST_RECIPIENT;
    }
}
