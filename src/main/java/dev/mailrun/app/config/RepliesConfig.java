package dev.mailrun.app.config;

import dev.mailrun.mail.bounce.MailboxSettings;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code replies.*}: the mailbox people's replies arrive in (optional; the campaigns' From or
 * Reply-To address must be delivered there) and how often it is read. Without it no reply is
 * counted and {@code --pick-by replies} is refused.
 */
public record RepliesConfig(Optional<MailboxSettings> mailbox, Duration interval) {

    /** No replies mailbox. */
    public static final RepliesConfig NONE = new RepliesConfig(Optional.empty(), Duration.ofMinutes(5));

    static final String NAME = "replies";

    public boolean counted() {
        return mailbox.isPresent();
    }

    /**
     * @param bounce      a replies mailbox that is the bounce mailbox's folder would take its mail
     * @param unsubscribe the Message-ID signing key, which replies are traced with, comes from its secret
     */
    static RepliesConfig from(RawConfig raw, BounceConfig bounce, UnsubscribeConfig unsubscribe) {
        Optional<String> host = raw.optional("replies.imap.host");
        if (host.isEmpty()) {
            return new RepliesConfig(Optional.empty(), raw.duration("replies.interval"));
        }
        MailboxSettings mailbox = MailrunConfig.validated(() -> new MailboxSettings(host.get(),
                raw.integer("replies.imap.port"), raw.bool("replies.imap.tls"), raw.required("replies.imap.user"),
                raw.string("replies.imap.password"), raw.string("replies.imap.folder"),
                raw.optional("replies.imap.processed-folder"), NAME));
        if (bounce.mailbox().filter(mailbox::sameFolderAs).isPresent()) {
            // Both tasks mark what they read processed: each would take the other's messages.
            throw ConfigException.invalid("replies.imap.folder", "is the bounce mailbox's folder (bounce.imap.*);"
                    + " replies need a mailbox or folder of their own");
        }
        if (unsubscribe.secret().isEmpty()) {
            throw ConfigException.invalid("replies.imap.host", "needs unsubscribe.secret: replies are traced by the"
                    + " signed Message-IDs, whose key derives from it");
        }
        return new RepliesConfig(Optional.of(mailbox), raw.duration("replies.interval"));
    }

    @Override
    public String toString() {
        return "RepliesConfig[mailbox=" + mailbox.map(Object::toString).orElse("(none)") + ", interval=" + interval + "]";
    }
}
