package dev.mailrun.campaign.send.deliver;

import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.mail.smtp.Outgoing;
import java.util.function.LongConsumer;

/** The messages of one run: one recipient's message, built on the thread that sends it. */
public interface Messages {

    /**
     * The message to {@code r}; {@code beforeBuild} gets the recipient's id first, on the thread that
     * builds it, and may block (the sending task waits there until the recipient is marked in flight).
     */
    Outgoing outgoing(ClaimedRecipient r, LongConsumer beforeBuild);
}
