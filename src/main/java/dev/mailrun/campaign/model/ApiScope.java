package dev.mailrun.campaign.model;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** What an API token may do. {@link #ADMIN} holds every other scope. */
public enum ApiScope {
    CAMPAIGNS_READ("campaigns:read"),
    CAMPAIGNS_WRITE("campaigns:write"),
    RECIPIENTS_WRITE("recipients:write"),
    SUPPRESSIONS_READ("suppressions:read"),
    SUPPRESSIONS_WRITE("suppressions:write"),
    TEMPLATES_READ("templates:read"),
    TEMPLATES_WRITE("templates:write"),
    EVENTS_READ("events:read"),
    EVENTS_WRITE("events:write"),
    AUDIENCE_READ("audience:read"),
    AUDIENCE_WRITE("audience:write"),
    ADMIN("admin");

    private final String text;

    ApiScope(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    /** Whether a token holding {@code held} may do what needs this scope. */
    public boolean grantedBy(Set<ApiScope> held) {
        return held.contains(this) || held.contains(ADMIN);
    }

    public static ApiScope parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(s -> s.text.equals(t)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown scope '" + text.strip() + "'; one of "
                        + Arrays.stream(values()).map(ApiScope::text).collect(Collectors.joining(", "))));
    }

    /** A comma-separated list, at least one scope. */
    public static Set<ApiScope> parseList(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("at least one scope is needed");
        }
        Set<ApiScope> scopes = EnumSet.noneOf(ApiScope.class);
        for (String part : text.split(",")) {
            scopes.add(parse(part));
        }
        return scopes;
    }

    public static String join(Set<ApiScope> scopes) {
        return scopes.stream().sorted().map(ApiScope::text).collect(Collectors.joining(","));
    }
}
