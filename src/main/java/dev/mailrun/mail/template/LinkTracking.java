package dev.mailrun.mail.template;

import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a tracked campaign's HTML part carries: its links rewritten to the click endpoint
 * ({@code clicks}), a 1×1 image from the open endpoint ({@code opens}); links to
 * {@code excludedDomains} (and their subdomains) are left as written.
 */
public record LinkTracking(boolean opens, boolean clicks, Set<String> excludedDomains) {

    public LinkTracking {
        if (!opens && !clicks) {
            throw new IllegalArgumentException("a tracked template tracks opens, clicks or both");
        }
        excludedDomains = excludedDomains.stream().map(d -> d.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
    }

    /** Whether a link to {@code host} is left as written. */
    boolean excludes(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        for (String d : excludedDomains) {
            if (h.equals(d) || h.endsWith("." + d)) {
                return true;
            }
        }
        return false;
    }
}
