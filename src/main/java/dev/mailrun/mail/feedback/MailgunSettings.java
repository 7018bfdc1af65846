package dev.mailrun.mail.feedback;

import dev.mailrun.mail.Secret;
import java.util.Objects;

/** Mailgun webhooks ({@code feedback.mailgun.signing-key}): the HTTP webhook signing key from Mailgun's console. */
public record MailgunSettings(Secret signingKey) {

    static final int MIN_KEY_LENGTH = 16;

    public MailgunSettings {
        Objects.requireNonNull(signingKey, "signingKey");
        if (signingKey.reveal().length() < MIN_KEY_LENGTH) {
            throw new IllegalArgumentException("feedback.mailgun.signing-key: must be at least " + MIN_KEY_LENGTH
                    + " characters: the HTTP webhook signing key from Mailgun's console (value not shown)");
        }
    }

    @Override
    public String toString() {
        return "MailgunSettings[signingKey=***]";
    }
}
