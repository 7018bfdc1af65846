package dev.mailrun.campaign.tracking;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code tracking.*} configuration, validated: where the public endpoints are, what is kept and
 * for how long. Made only when {@code tracking.enabled=true}.
 *
 * @param baseUrl        the public https base of {@code /c/} and {@code /o/} (no trailing slash)
 * @param perRecipient   whether events name their recipient (false: only per-campaign and per-link counts)
 * @param retention      how long events are kept
 * @param scannerWindow  a click this soon after delivery is a scanner's
 * @param excludeDomains links to these domains (and their subdomains) are not rewritten
 * @param bufferCapacity events waiting to be written at most; more are dropped and counted
 */
public record TrackingSettings(URI baseUrl, boolean perRecipient, Duration retention, Duration scannerWindow,
                               Set<String> excludeDomains, int bufferCapacity) {

    public TrackingSettings {
        Objects.requireNonNull(baseUrl, "baseUrl");
        if (!"https".equals(baseUrl.getScheme()) || baseUrl.getHost() == null || baseUrl.getRawQuery() != null
                || baseUrl.getRawFragment() != null) {
            throw new IllegalArgumentException("must be an https URL without query or fragment, got '" + baseUrl + "'");
        }
        String s = baseUrl.toString();
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        baseUrl = URI.create(s);
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("retention must be positive: " + retention);
        }
        if (scannerWindow.isNegative()) {
            throw new IllegalArgumentException("scanner window must not be negative: " + scannerWindow);
        }
        if (bufferCapacity < 1) {
            throw new IllegalArgumentException("buffer capacity must be at least 1: " + bufferCapacity);
        }
        excludeDomains = Set.copyOf(excludeDomains.stream().map(d -> d.toLowerCase(Locale.ROOT)).toList());
    }
}
