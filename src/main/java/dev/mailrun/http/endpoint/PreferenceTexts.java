package dev.mailrun.http.endpoint;

import java.util.List;
import java.util.Locale;
import java.util.ResourceBundle;

/**
 * The preference centre's words in the reader's language: English, or German when the browser's
 * Accept-Language puts German first among the two (resource bundles {@code preferences*.properties}).
 */
final class PreferenceTexts {

    static final Locale ENGLISH = Locale.ENGLISH;
    static final Locale GERMAN = Locale.GERMAN;
    private static final List<Locale> SHIPPED = List.of(ENGLISH, GERMAN);
    /** Longer headers are not read: English then. */
    private static final int MAX_HEADER_CHARS = 500;

    private final ResourceBundle bundle;
    private final Locale locale;

    private PreferenceTexts(Locale locale) {
        this.locale = locale;
        this.bundle = ResourceBundle.getBundle("dev.mailrun.http.endpoint.preferences", locale,
                ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES));
    }

    /** The texts for an Accept-Language header (null or unreadable: English). */
    static PreferenceTexts forHeader(String acceptLanguage) {
        if (acceptLanguage == null || acceptLanguage.isBlank() || acceptLanguage.length() > MAX_HEADER_CHARS) {
            return new PreferenceTexts(ENGLISH);
        }
        try {
            List<Locale.LanguageRange> ranges = Locale.LanguageRange.parse(acceptLanguage);
            Locale chosen = Locale.lookup(ranges, SHIPPED);
            return new PreferenceTexts(chosen == null ? ENGLISH : chosen);
        } catch (IllegalArgumentException e) {
            return new PreferenceTexts(ENGLISH);
        }
    }

    static PreferenceTexts of(Locale locale) {
        return new PreferenceTexts(locale);
    }

    String language() {
        return locale.getLanguage();
    }

    /** The text as written: it may hold markup, and {@code {0}}, {@code {1}} where the caller puts (escaped) values. */
    String get(String key, String... args) {
        String s = bundle.getString(key);
        for (int i = 0; i < args.length; i++) {
            s = s.replace("{" + i + "}", args[i]);
        }
        return s;
    }
}
