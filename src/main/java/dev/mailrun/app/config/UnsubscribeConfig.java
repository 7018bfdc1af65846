package dev.mailrun.app.config;

import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.mail.Secret;
import java.net.URI;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Unsubscribe links and the endpoint that serves them. The secret signs tokens; without it
 * mailrun cannot send (every bulk message must carry a working unsubscribe link).
 *
 * @param baseUrl normalised when loaded: the public URL links are built on, without the endpoint's
 *                {@code /u} and without a trailing slash ({@code https://mail.example.com},
 *                {@code https://example.com/mail})
 */
public record UnsubscribeConfig(Optional<Secret> secret, Optional<String> baseUrl, Optional<String> mailto,
                                Optional<Integer> httpPort) {

    static final int MIN_SECRET_LENGTH = 32;
    private static final Pattern MAILTO_LOCAL_PART = Pattern.compile("[A-Za-z0-9._+=-]+");

    public UnsubscribeConfig {
        secret.ifPresent(s -> {
            if (s.reveal().length() < MIN_SECRET_LENGTH) {
                throw ConfigException.invalid("unsubscribe.secret", "must be at least " + MIN_SECRET_LENGTH
                        + " characters (secret value not shown)");
            }
        });
        baseUrl = baseUrl.map(UnsubscribeConfig::linkBase);
        mailto = mailto.map(UnsubscribeConfig::mailtoAddress);
    }

    /**
     * Validates {@code unsubscribe.base-url} and normalises it to the base that links are built on:
     * with or without the endpoint's {@code /u} and trailing slashes, the same links come out.
     */
    private static String linkBase(String u) {
        URI uri;
        try {
            uri = URI.create(u.strip());
        } catch (IllegalArgumentException e) {
            throw ConfigException.invalid("unsubscribe.base-url", "is not a URL: '" + u + "'");
        }
        boolean local = "http".equals(uri.getScheme()) && ("localhost".equals(uri.getHost()) || "127.0.0.1".equals(uri.getHost()));
        if (!"https".equals(uri.getScheme()) && !local) {
            throw ConfigException.invalid("unsubscribe.base-url", "must be an https URL (one-click unsubscribe requires it), got '" + u + "'");
        }
        if (uri.getHost() == null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw ConfigException.invalid("unsubscribe.base-url", "must be https://host or https://host/path, without a query or fragment, got '" + u + "'");
        }
        return UnsubscribeTokens.linkBase(uri).toString();
    }

    /**
     * A valid address whose local part needs no percent-encoding in a mailto: URI (RFC 6068 reserves
     * {@code ? & % #} and more), so it goes into List-Unsubscribe as written; the domain in punycode.
     */
    private static String mailtoAddress(String m) {
        if (!(EmailAddress.check(m) instanceof EmailAddress.Valid valid) || !MAILTO_LOCAL_PART.matcher(valid.address().localPart()).matches()) {
            throw ConfigException.invalid("unsubscribe.mailto", "must be an address like unsubscribe@example.com"
                    + " (letters, digits and . _ + = - before the @), got '" + m + "'");
        }
        return valid.address().localPart() + "@" + valid.address().domain();
    }

    /**
     * The keys sending needs that are not set (the secret first): no campaign starts, and status shows
     * every running one held back, while one is missing.
     */
    public java.util.List<String> missingForSending() {
        java.util.List<String> missing = new java.util.ArrayList<>();
        if (secret.isEmpty()) {
            missing.add("unsubscribe.secret");
        }
        if (baseUrl.isEmpty()) {
            missing.add("unsubscribe.base-url");
        }
        return missing;
    }

    /** What sending needs; fails with a config error naming the missing key. */
    public Secret requireSecret() {
        return secret.orElseThrow(() -> ConfigException.invalid("unsubscribe.secret",
                "must be set to send (at least " + MIN_SECRET_LENGTH + " random characters, e.g. openssl rand -base64 33)"));
    }

    public String requireBaseUrl() {
        return baseUrl.orElseThrow(() -> ConfigException.invalid("unsubscribe.base-url",
                "must be set to send (the public https URL of the unsubscribe endpoint)"));
    }
}
