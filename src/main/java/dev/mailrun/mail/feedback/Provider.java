package dev.mailrun.mail.feedback;

import java.util.Locale;

/** The email providers whose event webhooks mailrun reads. */
public enum Provider {
    SES, POSTMARK, SENDGRID, MAILGUN;

    /** Lower-case name, as in configuration keys ({@code feedback.ses.*}), paths and stored rows. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
