package dev.mailrun.http.server;

import java.text.MessageFormat;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.util.List;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;

/**
 * The public pages' words in one language, from the resource bundle {@value #BUNDLE}
 * ({@code pages.properties}, English, and {@code pages_de.properties}, German). A language without its
 * own file falls back to English, never to the JVM's default locale. Texts are
 * {@link MessageFormat} patterns: a literal apostrophe is written twice. Texts are plain text, never
 * HTML: a page that sets part of a sentence apart (an address in bold) passes that part as an argument
 * of {@link #markup}, so no translator's file can put markup on a page.
 */
public final class PageTexts {

    public static final String BUNDLE = "dev.mailrun.http.server.pages";
    /** The languages a bundle ships for; a list or the configuration names one of these. */
    public static final List<String> LANGUAGES = List.of("en", "de");

    /** Longer Accept-Language headers are not read (English then): no browser sends one. */
    private static final int MAX_ACCEPT_LANGUAGE = 500;
    private static final List<Locale> SHIPPED = LANGUAGES.stream().map(Locale::forLanguageTag).toList();
    /** Stand-ins for {@link #markup}'s arguments: control characters no text holds and escaping leaves alone. */
    private static final char OPEN = '\u0001';
    private static final char CLOSE = '\u0002';

    private static final ResourceBundle.Control NO_FALLBACK =
            ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES);

    private final Locale locale;
    private final ResourceBundle bundle;

    private PageTexts(Locale locale, ResourceBundle bundle) {
        this.locale = locale;
        this.bundle = bundle;
    }

    /** The texts in {@code language} (an ISO 639 code, {@code en} or {@code de}); English for any other. */
    public static PageTexts of(String language) {
        Locale locale = LANGUAGES.contains(language) ? Locale.forLanguageTag(language) : Locale.ENGLISH;
        return new PageTexts(locale, ResourceBundle.getBundle(BUNDLE, locale, PageTexts.class.getClassLoader(), NO_FALLBACK));
    }

    /**
     * The texts for a reader no list speaks for: the shipped language their browser's Accept-Language
     * header ranks first; English when it names none of them, is absent or cannot be read.
     */
    public static PageTexts forAcceptLanguage(String header) {
        if (header == null || header.isBlank() || header.length() > MAX_ACCEPT_LANGUAGE) {
            return of("en");
        }
        try {
            Locale chosen = Locale.lookup(Locale.LanguageRange.parse(header), SHIPPED);
            return of(chosen == null ? "en" : chosen.getLanguage());
        } catch (IllegalArgumentException unreadable) {
            return of("en");
        }
    }

    public Locale locale() {
        return locale;
    }

    /** The language tag a page's {@code <html lang>} carries. */
    public String language() {
        return locale.toLanguageTag();
    }

    /** The text {@code key} with {@code args} filled in, as plain text (escape it for HTML: {@link #html}). */
    public String text(String key, Object... args) {
        String pattern;
        try {
            pattern = bundle.getString(key);
        } catch (MissingResourceException e) {
            throw new IllegalStateException("no text " + key + " in " + BUNDLE + " for " + locale, e);
        }
        return new MessageFormat(pattern, locale).format(args);
    }

    /** {@link #text}, escaped for HTML. */
    public String html(String key, Object... args) {
        return Html.escape(text(key, args));
    }

    /**
     * {@link #text} escaped for HTML, with {@code {0}}, {@code {1}}, ... replaced by {@code html}: markup
     * the caller made and escaped (an address in {@code <strong>}, a list of escaped names).
     */
    public String markup(String key, String... html) {
        Object[] marks = new Object[html.length];
        for (int i = 0; i < html.length; i++) {
            marks[i] = OPEN + Integer.toString(i) + CLOSE;
        }
        String page = Html.escape(text(key, marks));
        for (int i = 0; i < html.length; i++) {
            page = page.replace(OPEN + Integer.toString(i) + CLOSE, html[i]);
        }
        return page;
    }

    /** An instant as a date and time in this language (UTC, named), e.g. "7 December 2026, 05:49 UTC". */
    public String dateTime(Instant at) {
        return DateTimeFormatter.ofLocalizedDate(FormatStyle.LONG).withLocale(locale).format(at.atZone(ZoneOffset.UTC))
                + ", " + DateTimeFormatter.ofPattern("HH:mm").format(at.atZone(ZoneOffset.UTC)) + " UTC";
    }
}
