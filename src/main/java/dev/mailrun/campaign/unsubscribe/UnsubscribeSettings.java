package dev.mailrun.campaign.unsubscribe;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * {@code unsubscribe.secret} and {@code unsubscribe.base-url}: validated together at start-up, the
 * secret never shown.
 */
public final class UnsubscribeSettings {

    private final SigningKey key;
    private final URI baseUrl;

    public UnsubscribeSettings(String secret, String baseUrl) {
        this.key = SigningKey.of(secret);
        this.baseUrl = parse(baseUrl);
    }

    private static URI parse(String baseUrl) {
        if (baseUrl == null || baseUrl.isBlank()) {
            throw new IllegalArgumentException("unsubscribe.base-url is not set, e.g. https://mail.example.com");
        }
        URI uri;
        try {
            uri = new URI(baseUrl.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("unsubscribe.base-url is not a URL: " + e.getMessage(), e);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
            throw new IllegalArgumentException("unsubscribe.base-url must be an absolute http(s) URL, was '" + baseUrl + "'");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("unsubscribe.base-url must not have a query or fragment, was '" + baseUrl + "'");
        }
        return uri;
    }

    public URI baseUrl() {
        return baseUrl;
    }

    public UnsubscribeTokens tokens() {
        return new UnsubscribeTokens(key);
    }

    public ReturnPaths returnPaths() {
        return new ReturnPaths(key);
    }

    @Override
    public String toString() {
        return "UnsubscribeSettings[secret=***, baseUrl=" + baseUrl + "]";
    }
}
