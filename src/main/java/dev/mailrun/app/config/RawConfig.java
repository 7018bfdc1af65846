package dev.mailrun.app.config;

import java.math.BigInteger;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Configuration values after merging defaults, the properties file and the environment, with
 * typed getters whose errors name the key. Secret values never appear in an error message.
 */
final class RawConfig {

    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");
    /** What a trailing comment looks like; a properties file has none, so it would be part of the value. */
    private static final Pattern TRAILING_COMMENT = Pattern.compile("\\s#");

    private final Map<String, String> values;

    RawConfig(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    /**
     * The value with surrounding whitespace removed — except a secret's, which is used exactly as
     * given and refused when it begins or ends with whitespace: a trailing space in a properties file
     * is invisible, and neither dropping it silently nor keeping it silently is what the operator meant.
     * Any value with whitespace followed by {@code #} is refused: it is almost always a comment copied
     * onto the end of a line, which a properties file keeps as part of the value.
     */
    String string(String key) {
        String v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException("unknown configuration key " + key);
        }
        if (TRAILING_COMMENT.matcher(v).find()) {
            throw ConfigException.invalid(key, "contains whitespace followed by '#', got " + shown(key, v.strip())
                    + ": a properties file has no trailing comments (the text would be part of the value);"
                    + " put a comment on a line of its own");
        }
        if (!isSecret(key)) {
            return v.trim();
        }
        if (!v.isEmpty() && (!v.equals(v.strip()) || !v.equals(v.trim()))) {
            throw ConfigException.invalid(key, "must not begin or end with whitespace (secret value not shown)");
        }
        return v;
    }

    /** Every key with a value (defaults included). */
    java.util.Set<String> keys() {
        return values.keySet();
    }

    /** Every key with a value (defaults included) that starts with {@code prefix}. */
    java.util.List<String> keysStartingWith(String prefix) {
        return values.keySet().stream().filter(k -> k.startsWith(prefix)).sorted().toList();
    }

    Optional<String> optional(String key) {
        String v = string(key);
        return v.isEmpty() ? Optional.empty() : Optional.of(v);
    }

    String required(String key) {
        return optional(key).orElseThrow(() -> ConfigException.invalid(key, "must be set"));
    }

    /** A whole number within the key's {@link Range}. */
    int integer(String key) {
        Range.Whole range = range(key, Range.Whole.class);
        return integer(key, range.min(), range.max());
    }

    Optional<Integer> optionalInteger(String key) {
        return optional(key).map(v -> integer(key));
    }

    int integer(String key, int min, int max) {
        String v = string(key);
        if (!v.matches("[+-]?\\d+")) {
            throw ConfigException.invalid(key, "must be a whole number, got " + shown(key, v));
        }
        // Any number of digits: 99999999999 is out of range, not "not a number".
        BigInteger n = new BigInteger(v);
        if (n.compareTo(BigInteger.valueOf(min)) < 0 || n.compareTo(BigInteger.valueOf(max)) > 0) {
            throw ConfigException.invalid(key, "must be between " + min + " and " + max + ", got " + shown(key, v));
        }
        return n.intValueExact();
    }

    /** A number within the key's {@link Range}. */
    double decimal(String key) {
        Range.Decimal range = range(key, Range.Decimal.class);
        String v = string(key);
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw ConfigException.invalid(key, "must be a number, got " + shown(key, v));
        }
        if (!range.contains(d)) {
            throw ConfigException.invalid(key, "must be " + range.text() + ", got " + shown(key, v));
        }
        return d;
    }

    /** Exactly {@code true} or {@code false}, in any case: nothing else reads as a yes or a no. */
    boolean bool(String key) {
        String v = string(key);
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw ConfigException.invalid(key, "must be true or false, got " + shown(key, v));
        };
    }

    /** A duration within the key's {@link Range}: 250ms, 30s, 5m, 2h, 1d or ISO-8601 (PT5M). */
    Duration duration(String key) {
        Range.Span range = range(key, Range.Span.class);
        String v = string(key);
        Optional<Duration> d = parseDuration(key, v);
        if (d.isEmpty() || !range.contains(d.get())) {
            throw ConfigException.invalid(key, "must be " + range.text() + ", got " + shown(key, v));
        }
        return d.get();
    }

    /** One of the enum's names, in any case, written lower-case with '-' for '_' (starttls-optional). */
    <E extends Enum<E>> E choice(String key, Class<E> type) {
        String v = string(key);
        try {
            return Enum.valueOf(type, v.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            StringBuilder allowed = new StringBuilder();
            for (E c : type.getEnumConstants()) {
                allowed.append(allowed.length() == 0 ? "" : ", ").append(c.name().toLowerCase(Locale.ROOT).replace('_', '-'));
            }
            throw ConfigException.invalid(key, "must be one of " + allowed + ", got " + shown(key, v));
        }
    }

    /** Empty when the value is a duration too large for {@link Duration} (far beyond any range). */
    private Optional<Duration> parseDuration(String key, String v) {
        Matcher m = SHORT_DURATION.matcher(v);
        try {
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                return Optional.of(switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                });
            }
            return Optional.of(Duration.parse(v));
        } catch (NumberFormatException | ArithmeticException overflow) {
            return Optional.empty();
        } catch (DateTimeParseException e) {
            if (e.getCause() instanceof ArithmeticException || e.getCause() instanceof NumberFormatException) {
                return Optional.empty();
            }
            throw ConfigException.invalid(key, "must be a duration such as 30s, 5m or PT5M, got " + shown(key, v));
        }
    }

    private static <R extends Range> R range(String key, Class<R> type) {
        Range range = ConfigKeys.find(key).flatMap(ConfigKey::range).orElseThrow(
                () -> new IllegalStateException("configuration key " + key + " has no range"));
        if (!type.isInstance(range)) {
            throw new IllegalStateException("configuration key " + key + " has a " + range.getClass().getSimpleName()
                    + " range, not a " + type.getSimpleName());
        }
        return type.cast(range);
    }

    /** The offending value in quotes, or a placeholder for secrets. */
    static String shown(String key, String value) {
        return isSecret(key) ? "(secret value not shown)" : "'" + value + "'";
    }

    private static boolean isSecret(String key) {
        return ConfigKeys.find(key).map(ConfigKey::secret).orElse(false);
    }
}
