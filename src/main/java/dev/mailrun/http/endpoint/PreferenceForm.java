package dev.mailrun.http.endpoint;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * A preference centre form as posted ({@code application/x-www-form-urlencoded}): the signed form
 * token, the action its button named, and the lists ticked. Anything else is ignored; a malformed
 * escape, a list that is not a positive number or more fields than {@link #MAX_FIELDS} is refused
 * ({@link IllegalArgumentException}: the page says the form could not be read).
 */
record PreferenceForm(Optional<String> csrf, Optional<String> action, Set<Long> lists) {

    /** Far more lists than a page shows, far fewer than a burden. */
    static final int MAX_FIELDS = 1_000;

    static PreferenceForm parse(byte[] body) {
        String encoded = new String(body, StandardCharsets.US_ASCII);
        String csrf = null;
        String action = null;
        Set<Long> lists = new LinkedHashSet<>();
        if (!encoded.isEmpty()) {
            String[] pairs = encoded.split("&", -1);
            if (pairs.length > MAX_FIELDS) {
                throw new IllegalArgumentException("more than " + MAX_FIELDS + " fields");
            }
            for (String pair : pairs) {
                int eq = pair.indexOf('=');
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                switch (name) {
                    case "csrf" -> csrf = csrf == null ? value : csrf;
                    case "action" -> action = action == null ? value : action;
                    case "list" -> lists.add(listId(value));
                    default -> { }
                }
            }
        }
        return new PreferenceForm(Optional.ofNullable(csrf), Optional.ofNullable(action), Set.copyOf(lists));
    }

    private static long listId(String value) {
        if (value.isEmpty() || value.length() > 18 || !value.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            throw new IllegalArgumentException("list: not a list id");
        }
        return Long.parseLong(value);
    }
}
