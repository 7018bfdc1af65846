package dev.mailrun.app.config;

import dev.mailrun.campaign.audience.signup.SignupGuard;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.http.server.PageLook;
import dev.mailrun.http.server.PageTexts;
import dev.mailrun.mail.HeaderValues;
import dev.mailrun.mail.message.Mailbox;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code signup.*} and {@code pages.*}: the public sign-up forms (docs/SIGNUP.md) and how the public
 * pages look. Checked when loaded, each problem naming its key.
 *
 * @param enabled         whether the public listener serves /subscribe and /confirm
 * @param from            the sender of sign-up messages; required when enabled
 * @param language        the pages' and messages' language of a list without its own (en, de)
 * @param confirmTemplate the confirmation message's template
 * @param welcomeTemplate the welcome message's template; empty: none is sent
 * @param confirmTtl      how long a confirmation link works
 * @param wordingVersion  recorded with each consent from a form
 * @param storeIp         whether the client's address is kept with a form's consent
 * @param guard           rates, fill times and whether other sites' forms may post
 * @param proofOfWork     the largest number of the proof-of-work challenge each sign-up must solve; empty: none asked
 * @param look            the public pages' logo, colours and footer
 */
public record SignupConfig(boolean enabled, Optional<Mailbox> from, String language, String confirmTemplate,
                           Optional<String> welcomeTemplate, Duration confirmTtl, String wordingVersion, boolean storeIp,
                           SignupGuard.Rules guard, Optional<Long> proofOfWork, PageLook look) {

    private static final Pattern NAMED = Pattern.compile("^\\s*(.*?)\\s*<([^<>]+)>\\s*$");
    private static final Pattern WORDING = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    public SignupConfig {
        if (!PageTexts.LANGUAGES.contains(language)) {
            throw ConfigException.invalid("signup.language", "must be one of " + PageTexts.LANGUAGES + ", got '" + language + "'");
        }
        if (!WORDING.matcher(wordingVersion).matches()) {
            throw ConfigException.invalid("signup.wording-version", "must be 1-64 letters, digits, '.', '_' or '-', got '"
                    + wordingVersion + "'");
        }
        if (enabled && from.isEmpty()) {
            throw ConfigException.invalid("signup.from", "must be set when signup.enabled is true (the sender of confirmation messages)");
        }
        if (guard.minFillTime().compareTo(guard.formMaxAge()) >= 0) {
            throw ConfigException.invalid("signup.min-fill-time", "must be shorter than signup.form-max-age");
        }
    }

    static SignupConfig from(RawConfig raw) {
        PageLook look;
        try {
            look = new PageLook(PageLook.logoOf(raw.string("pages.logo-url")), raw.string("pages.accent-colour"),
                    raw.string("pages.text-colour"), raw.optional("pages.footer"));
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            int colon = message.indexOf(": ");
            throw ConfigException.invalid(message.substring(0, colon), message.substring(colon + 2));
        }
        SignupGuard.Rules rules = new SignupGuard.Rules(raw.integer("signup.ip-limit"), raw.integer("signup.address-limit"),
                raw.duration("signup.limit-window"), raw.duration("signup.min-fill-time"), raw.duration("signup.form-max-age"),
                raw.bool("signup.external-forms"));
        return new SignupConfig(raw.bool("signup.enabled"), raw.optional("signup.from").map(SignupConfig::mailbox),
                raw.string("signup.language"), raw.string("signup.confirm-template"),
                raw.optional("signup.welcome-template"), raw.duration("signup.confirm-ttl"), raw.string("signup.wording-version"),
                raw.bool("signup.store-ip"), rules,
                raw.bool("signup.proof-of-work") ? Optional.of((long) raw.integer("signup.proof-of-work-max-number")) : Optional.empty(),
                look);
    }

    private static Mailbox mailbox(String value) {
        Matcher m = NAMED.matcher(value);
        String address = m.matches() ? m.group(2).strip() : value.strip();
        String name = m.matches() ? m.group(1).replaceAll("^\"|\"$", "") : "";
        if (EmailAddress.check(address) instanceof EmailAddress.Invalid invalid) {
            throw ConfigException.invalid("signup.from", "'" + address + "' is not an address: " + invalid.reason());
        }
        HeaderValues.problem(name).ifPresent(p -> {
            throw ConfigException.invalid("signup.from", "the name " + p);
        });
        return new Mailbox(address, name);
    }
}
