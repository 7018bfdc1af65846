package dev.mailrun.mail.feedback;

import dev.mailrun.mail.Secret;
import java.util.Objects;

/**
 * Postmark webhooks ({@code feedback.postmark.*}): the HTTP basic credentials put into the webhook
 * URL in Postmark's console. Postmark signs nothing, so these are all that tells its requests apart.
 */
public record PostmarkSettings(Secret user, Secret password) {

    static final int MIN_PASSWORD_LENGTH = 16;

    public PostmarkSettings {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        String u = user.reveal();
        if (u.isEmpty() || u.indexOf(':') >= 0 || u.chars().anyMatch(c -> c < 0x21 || c == 0x7f)) {
            throw new IllegalArgumentException("feedback.postmark.user: must be non-empty, without ':', spaces or control"
                    + " characters (value not shown)");
        }
        String p = password.reveal();
        if (p.length() < MIN_PASSWORD_LENGTH || p.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new IllegalArgumentException("feedback.postmark.password: must be at least " + MIN_PASSWORD_LENGTH
                    + " characters without control characters (value not shown)");
        }
    }

    @Override
    public String toString() {
        return "PostmarkSettings[user=***, password=***]";
    }
}
