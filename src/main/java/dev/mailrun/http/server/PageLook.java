package dev.mailrun.http.server;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How the public pages look, as the operator configures it ({@code pages.*}): a logo, two colours and
 * a footer line. Checked here, each problem naming its key: the logo an absolute https URL (the only
 * thing a page fetches from elsewhere), colours {@code #rrggbb}, the footer one line of at most
 * {@value #MAX_FOOTER} characters.
 *
 * @param logo   shown above every page's title; empty: none
 * @param accent buttons, links and focus outlines
 * @param text   the text colour
 * @param footer a line under every page; empty: none
 */
public record PageLook(Optional<URI> logo, String accent, String text, Optional<String> footer) {

    private static final Pattern COLOUR = Pattern.compile("#[0-9a-fA-F]{6}");
    public static final int MAX_FOOTER = 300;
    public static final int MAX_LOGO_URL = 2000;
    public static final PageLook DEFAULTS = new PageLook(Optional.empty(), "#1d4ed8", "#111827", Optional.empty());

    public PageLook {
        logo.ifPresent(PageLook::checkLogo);
        accent = colour("pages.accent-colour", accent);
        text = colour("pages.text-colour", text);
        footer = footer.map(String::strip).filter(f -> !f.isEmpty());
        footer.ifPresent(PageLook::checkFooter);
    }

    /** The logo's origin ({@code https://host[:port]}), the one source a page's CSP allows images from. */
    public Optional<String> logoOrigin() {
        return logo.map(u -> "https://" + u.getRawAuthority());
    }

    /** The logo from its configured text; blank: none. */
    public static Optional<URI> logoOf(String configured) {
        if (configured == null || configured.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new URI(configured.strip()));
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("pages.logo-url: not a URL (" + e.getReason() + "); give an https URL of an image");
        }
    }

    private static void checkLogo(URI logo) {
        String s = logo.toString();
        if (s.length() > MAX_LOGO_URL) {
            throw new IllegalArgumentException("pages.logo-url: at most " + MAX_LOGO_URL + " characters, got " + s.length());
        }
        if (!"https".equalsIgnoreCase(logo.getScheme()) || logo.getRawAuthority() == null || logo.getHost() == null) {
            throw new IllegalArgumentException("pages.logo-url: must be an absolute https URL (https://host/logo.png), got '" + s + "'");
        }
        if (logo.getRawUserInfo() != null) {
            throw new IllegalArgumentException("pages.logo-url: must not carry a user name or password");
        }
        if (s.chars().anyMatch(c -> c < 0x21 || c == '"' || c == '\'' || c == '<' || c == '>' || c == 0x7f)) {
            throw new IllegalArgumentException("pages.logo-url: must not hold spaces, quotes or angle brackets");
        }
    }

    private static String colour(String key, String value) {
        if (value == null || !COLOUR.matcher(value.strip()).matches()) {
            throw new IllegalArgumentException(key + ": must be a colour written #rrggbb (like #1d4ed8), got '" + value + "'");
        }
        return value.strip().toLowerCase(Locale.ROOT);
    }

    private static void checkFooter(String footer) {
        if (footer.length() > MAX_FOOTER) {
            throw new IllegalArgumentException("pages.footer: at most " + MAX_FOOTER + " characters, got " + footer.length());
        }
        if (footer.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("pages.footer: must be one line without control characters");
        }
    }
}
