package dev.mailrun.campaign.audience;

import java.io.IOException;

/** Sends one plain-text message to one person, such as an erasure's confirmation; {@code app} wires the relay in. */
public interface ConfirmationMail {

    /** A message: From, To, subject and text, each checked by the implementation. */
    record Mail(String from, String to, String subject, String text) {}

    /** @throws IOException when the relay did not take it */
    void send(Mail mail) throws IOException;
}
