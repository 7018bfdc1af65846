package dev.mailrun.testing;

import dev.mailrun.campaign.audience.signup.ProofOfWork;
import dev.mailrun.campaign.audience.signup.SignupGuard;
import dev.mailrun.campaign.audience.signup.SignupSettings;
import dev.mailrun.campaign.audience.signup.Signups;
import dev.mailrun.campaign.audience.signup.SmtpSignupMailer;
import dev.mailrun.campaign.content.Contents;
import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.SignupTokens;
import dev.mailrun.mail.message.Mailbox;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.mail.template.TemplateLoader;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The public listener's domain parts wired as a worker wires them, for the tests that serve the
 * public pages over a real socket: sign-ups, their messages through a real SMTP server, their
 * templates from the content store or the shipped confirmation.
 */
public final class PublicWiring {

    /** The sign-up guard of these tests: 6 sign-ups per client and 3 per address an hour, 3 s to fill a form, a day to send it. */
    public static final SignupGuard.Rules RULES = new SignupGuard.Rules(6, 3, Duration.ofHours(1), Duration.ofSeconds(3),
            Duration.ofDays(1), false);

    private PublicWiring() {}

    /** The relay at {@code port} on this machine, plain SMTP, 5-s timeouts. */
    public static SmtpSettings smtp(int port) {
        return SmtpSettings.of("127.0.0.1", port, TlsMode.NONE, "mailrun.test")
                .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5));
    }

    /** Sign-ups in English from {@code from}, links made on {@code base}, consent wording {@code wording}, no client address kept. */
    public static Signups signups(DataSource ds, Clock clock, SignupTokens tokens, int smtpPort, Mailbox from, URI base, String wording) {
        SignupSettings settings = new SignupSettings(from, base, "en", SmtpSignupMailer.DEFAULT_CONFIRM, Optional.empty(), wording,
                false, RULES.minFillTime(), RULES.formMaxAge());
        Contents contents = new Contents(ds, new TemplateStore(ds, clock, TemplateStore.DEFAULT_MAX_BYTES),
                new TemplateLoader(Path.of("templates")), new PinnedTemplates(ds, clock));
        return new Signups(ds, clock, settings, tokens, new SmtpSignupMailer(contents, smtp(smtpPort), settings, clock));
    }

    /** The guard of {@link #RULES}, asking for {@code proof} when given. */
    public static SignupGuard guard(SignupTokens tokens, Optional<ProofOfWork> proof, Clock clock) {
        return new SignupGuard(tokens, RULES, proof, clock);
    }

    /** The sign-up tokens signed with {@code key}, confirmation links valid three days. */
    public static SignupTokens signupTokens(SigningKey key, Clock clock) {
        return new SignupTokens(key, Duration.ofDays(3), clock);
    }
}
