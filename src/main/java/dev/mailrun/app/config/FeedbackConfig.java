package dev.mailrun.app.config;

import dev.mailrun.mail.Secret;
import dev.mailrun.mail.feedback.MailgunSettings;
import dev.mailrun.mail.feedback.MessageTags;
import dev.mailrun.mail.feedback.PostmarkSettings;
import dev.mailrun.mail.feedback.Provider;
import dev.mailrun.mail.feedback.SendGridSettings;
import dev.mailrun.mail.feedback.SesSettings;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Feedback from email providers ({@code feedback.*}): each provider is off until its own keys are set
 * ({@code feedback.ses.enabled=true}; the Postmark credentials; the SendGrid public key; the Mailgun
 * signing key). An enabled provider gets its webhook route on the public endpoint and its metadata in
 * every message.
 */
public record FeedbackConfig(Optional<SesSettings> ses, Optional<PostmarkSettings> postmark,
                             Optional<SendGridSettings> sendgrid, Optional<MailgunSettings> mailgun) {

    public static final FeedbackConfig NONE = new FeedbackConfig(Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.empty());

    static FeedbackConfig from(RawConfig raw, Optional<Integer> httpPort) {
        FeedbackConfig c = new FeedbackConfig(ses(raw), postmark(raw),
                raw.optional("feedback.sendgrid.public-key").map(k -> checked(() -> SendGridSettings.parse(k))),
                raw.optional("feedback.mailgun.signing-key").map(k -> checked(() -> new MailgunSettings(Secret.of(k)))));
        if (!c.providers().isEmpty() && httpPort.isEmpty()) {
            // The webhooks are served by the endpoint on http.port; without it every event would be lost.
            throw ConfigException.invalid("http.port", "must be set to receive the webhooks of "
                    + c.providers().stream().map(Provider::id).collect(Collectors.joining(", ")) + " (feedback.*)");
        }
        return c;
    }

    private static Optional<SesSettings> ses(RawConfig raw) {
        Optional<String> arns = raw.optional("feedback.ses.topic-arns");
        boolean autoConfirm = raw.bool("feedback.ses.auto-confirm");
        Optional<String> configurationSet = raw.optional("feedback.ses.configuration-set");
        if (!raw.bool("feedback.ses.enabled")) {
            for (String key : new String[] {"feedback.ses.topic-arns", "feedback.ses.configuration-set"}) {
                if (raw.optional(key).isPresent()) {
                    throw ConfigException.invalid(key, "is set but feedback.ses.enabled is false");
                }
            }
            if (autoConfirm) {
                throw ConfigException.invalid("feedback.ses.auto-confirm", "is true but feedback.ses.enabled is false");
            }
            return Optional.empty();
        }
        Set<String> topics = arns.map(a -> Arrays.stream(a.split(",")).map(String::strip).filter(s -> !s.isEmpty())
                .collect(Collectors.toSet())).orElse(Set.of());
        return Optional.of(checked(() -> new SesSettings(topics, autoConfirm, configurationSet)));
    }

    private static Optional<PostmarkSettings> postmark(RawConfig raw) {
        Optional<String> user = raw.optional("feedback.postmark.user");
        Optional<String> password = raw.optional("feedback.postmark.password");
        if (user.isPresent() != password.isPresent()) {
            String missing = user.isPresent() ? "feedback.postmark.password" : "feedback.postmark.user";
            String other = user.isPresent() ? "feedback.postmark.user" : "feedback.postmark.password";
            throw ConfigException.invalid(missing, "must be set when " + other + " is");
        }
        return user.map(u -> checked(() -> new PostmarkSettings(Secret.of(u), Secret.of(password.get()))));
    }

    /** The settings records say which key is wrong; the operator sees a configuration error naming it. */
    private static <T> T checked(Supplier<T> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            throw new ConfigException("configuration key " + e.getMessage());
        }
    }

    public Set<Provider> providers() {
        Set<Provider> p = EnumSet.noneOf(Provider.class);
        ses.ifPresent(s -> p.add(Provider.SES));
        postmark.ifPresent(s -> p.add(Provider.POSTMARK));
        sendgrid.ifPresent(s -> p.add(Provider.SENDGRID));
        mailgun.ifPresent(s -> p.add(Provider.MAILGUN));
        return p;
    }

    /** The metadata headers every message carries for the enabled providers. */
    MessageTags messageTags() {
        return new MessageTags(providers(), ses.flatMap(SesSettings::configurationSet));
    }

    @Override
    public String toString() {
        return "FeedbackConfig[providers=" + providers() + "]";
    }
}
