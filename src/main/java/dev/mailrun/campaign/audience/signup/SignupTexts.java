package dev.mailrun.campaign.audience.signup;

import java.text.MessageFormat;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.util.List;
import java.util.Locale;
import java.util.ResourceBundle;

/**
 * The sign-up messages' words in one language, from the bundle {@value #BUNDLE} (English, German);
 * any other language is English, never the JVM's default.
 */
final class SignupTexts {

    static final String BUNDLE = "dev.mailrun.campaign.audience.signup.mail";
    static final List<String> LANGUAGES = List.of("en", "de");
    private static final ResourceBundle.Control NO_FALLBACK =
            ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES);

    private final Locale locale;
    private final ResourceBundle bundle;

    SignupTexts(String language) {
        this.locale = LANGUAGES.contains(language) ? Locale.forLanguageTag(language) : Locale.ENGLISH;
        this.bundle = ResourceBundle.getBundle(BUNDLE, locale, SignupTexts.class.getClassLoader(), NO_FALLBACK);
    }

    String language() {
        return locale.toLanguageTag();
    }

    String text(String key, Object... args) {
        return new MessageFormat(bundle.getString(key), locale).format(args);
    }

    /** An instant as a date and time in this language, in UTC. */
    String dateTime(Instant at) {
        return DateTimeFormatter.ofLocalizedDate(FormatStyle.LONG).withLocale(locale).format(at.atZone(ZoneOffset.UTC))
                + ", " + DateTimeFormatter.ofPattern("HH:mm").format(at.atZone(ZoneOffset.UTC)) + " UTC";
    }
}
