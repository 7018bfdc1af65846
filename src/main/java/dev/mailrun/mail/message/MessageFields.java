package dev.mailrun.mail.message;

import dev.mailrun.mail.feedback.MessageTags;
import dev.mailrun.mail.feedback.SendIds;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything that goes into one message's headers, apart from the rendered subject.
 *
 * @param messageId         with angle brackets, e.g. from {@link MessageIds#derive}
 * @param listId            the list identifier, e.g. {@code c12.lists.example.com}
 * @param listName          the human-readable List-Id phrase, e.g. the campaign name; may be empty
 * @param unsubscribeUrl    the https one-click URL carrying a signed token
 * @param unsubscribeMailto e.g. {@code mailto:unsubscribe@example.com?subject=c12.r3456}; empty when no
 *                          mailbox reads such requests: List-Unsubscribe then carries the URL alone
 * @param sendIds           the campaign and recipient this message is for: written as the metadata of
 *                          the enabled email providers ({@link MessageTags}); empty: none written
 */
public record MessageFields(Mailbox from, Optional<Mailbox> replyTo, Mailbox to, String messageId,
                            String listId, String listName, String unsubscribeUrl, Optional<String> unsubscribeMailto,
                            Optional<SendIds> sendIds) {

    public MessageFields(Mailbox from, Optional<Mailbox> replyTo, Mailbox to, String messageId, String listId,
                         String listName, String unsubscribeUrl, Optional<String> unsubscribeMailto) {
        this(from, replyTo, to, messageId, listId, listName, unsubscribeUrl, unsubscribeMailto, Optional.empty());
    }

    /** With a mailto: URI for List-Unsubscribe next to the URL. */
    public MessageFields(Mailbox from, Optional<Mailbox> replyTo, Mailbox to, String messageId, String listId,
                         String listName, String unsubscribeUrl, String unsubscribeMailto) {
        this(from, replyTo, to, messageId, listId, listName, unsubscribeUrl,
                Optional.of(Objects.requireNonNull(unsubscribeMailto, "unsubscribeMailto")));
    }

    public MessageFields {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(replyTo, "replyTo");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(listId, "listId");
        Objects.requireNonNull(listName, "listName");
        Objects.requireNonNull(unsubscribeUrl, "unsubscribeUrl");
        Objects.requireNonNull(unsubscribeMailto, "unsubscribeMailto");
        Objects.requireNonNull(sendIds, "sendIds");
    }

    /** The fields that differ from one recipient of the campaign to the next. */
    RecipientFields recipient() {
        return new RecipientFields(to, messageId, unsubscribeUrl, unsubscribeMailto, sendIds);
    }

    /** The same fields for the message to recipient {@code recipientId} of campaign {@code campaignId}. */
    public MessageFields forSend(long campaignId, long recipientId) {
        return new MessageFields(from, replyTo, to, messageId, listId, listName, unsubscribeUrl, unsubscribeMailto,
                Optional.of(new SendIds(campaignId, recipientId)));
    }
}
