package dev.mailrun.campaign.audience.signup;

import dev.mailrun.mail.message.Mailbox;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What sign-ups need from the configuration ({@code signup.*}, docs/SIGNUP.md).
 *
 * @param from            the sender of confirmation and welcome messages
 * @param base            the public base URL confirmation links are made on
 * @param language        the language of a list without its own
 * @param confirmTemplate the content store's template of the confirmation message
 * @param welcomeTemplate the welcome message's template, sent on confirmation; empty: none
 * @param wordingVersion  the version of the form's consent wording, recorded with each consent
 * @param storeIp         whether a form's client address is kept with its consent
 * @param minFillTime     a hosted form sent sooner after it was shown is taken for a bot's
 * @param formMaxAge      a hosted form older than this is refused (reload it)
 */
public record SignupSettings(Mailbox from, URI base, String language, String confirmTemplate, Optional<String> welcomeTemplate,
                             String wordingVersion, boolean storeIp, Duration minFillTime, Duration formMaxAge) {

    public SignupSettings {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(confirmTemplate, "confirmTemplate");
        Objects.requireNonNull(welcomeTemplate, "welcomeTemplate");
        Objects.requireNonNull(wordingVersion, "wordingVersion");
    }
}
