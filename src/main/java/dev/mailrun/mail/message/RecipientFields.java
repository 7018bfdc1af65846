package dev.mailrun.mail.message;

import dev.mailrun.mail.feedback.MessageTags;
import dev.mailrun.mail.feedback.SendIds;
import java.util.Objects;
import java.util.Optional;

/**
 * The header values that differ from one recipient of a campaign to the next (the rest are in
 * {@link CampaignComposer}).
 *
 * @param messageId         with angle brackets, e.g. from {@link MessageIds#derive}
 * @param unsubscribeUrl    the https one-click URL carrying a signed token
 * @param unsubscribeMailto e.g. {@code mailto:unsubscribe@example.com?subject=c12.r3456}; empty: List-Unsubscribe
 *                          carries the URL alone
 * @param sendIds           written as the metadata of the enabled email providers ({@link MessageTags});
 *                          empty: none written
 */
public record RecipientFields(Mailbox to, String messageId, String unsubscribeUrl, Optional<String> unsubscribeMailto,
                              Optional<SendIds> sendIds) {

    public RecipientFields {
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(unsubscribeUrl, "unsubscribeUrl");
        Objects.requireNonNull(unsubscribeMailto, "unsubscribeMailto");
        Objects.requireNonNull(sendIds, "sendIds");
    }
}
