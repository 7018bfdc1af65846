package dev.mailrun.events.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Which event types an endpoint takes ({@code events.<name>.types}): a comma-separated list of
 * types ({@code recipient.bounced}) and prefixes ({@code recipient.*}); {@code *} takes all but the
 * optional types, which only their own name takes.
 */
public record TypeFilter(List<String> patterns) {

    private static final Pattern ONE = Pattern.compile("\\*|[a-z]+\\.\\*|[a-z]+\\.[a-z_]+");

    public TypeFilter {
        patterns = List.copyOf(patterns);
        if (patterns.isEmpty()) {
            throw new IllegalArgumentException("names no event type");
        }
    }

    /** @throws IllegalArgumentException naming the entry that is not a type, a prefix or {@code *} */
    public static TypeFilter parse(String value) {
        List<String> list = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            String p = part.strip();
            if (!ONE.matcher(p).matches()) {
                throw new IllegalArgumentException("entry '" + p + "' is not an event type (recipient.bounced), a prefix"
                        + " (recipient.*) or *");
            }
            list.add(p);
        }
        return new TypeFilter(list);
    }

    /** Whether the filter takes {@code type}, an ordinary type: by name, by prefix or by {@code *}. */
    public boolean matches(String type) {
        return takes(type, false);
    }

    /**
     * Whether the filter takes {@code type}; an {@code optional} type only when named exactly (off by
     * default: {@code recipient.*} and {@code *} do not switch it on).
     */
    public boolean takes(String type, boolean optional) {
        if (optional) {
            return patterns.contains(type);
        }
        for (String p : patterns) {
            if (p.equals("*") || p.equals(type) || (p.endsWith(".*") && type.startsWith(p.substring(0, p.length() - 1)))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return String.join(",", patterns);
    }
}
