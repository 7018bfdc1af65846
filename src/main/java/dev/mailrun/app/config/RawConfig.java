package dev.mailrun.app.config;

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
public final class RawConfig {

    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    private final Map<String, String> values;

    RawConfig(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    public String string(String key) {
        String v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException("unknown configuration key " + key);
        }
        return v.trim();
    }

    public Optional<String> optional(String key) {
        String v = string(key);
        return v.isEmpty() ? Optional.empty() : Optional.of(v);
    }

    public String required(String key) {
        return optional(key).orElseThrow(() -> ConfigException.invalid(key, "must be set"));
    }

    public int integer(String key, int min, int max) {
        String v = string(key);
        try {
            int n = Integer.parseInt(v);
            if (n < min || n > max) {
                throw ConfigException.invalid(key, "must be between " + min + " and " + max + ", got " + shown(key, v));
            }
            return n;
        } catch (NumberFormatException e) {
            throw ConfigException.invalid(key, "must be a whole number, got " + shown(key, v));
        }
    }

    public Optional<Integer> optionalInteger(String key, int min, int max) {
        return optional(key).map(v -> integer(key, min, max));
    }

    public double decimal(String key, double min, double max) {
        String v = string(key);
        try {
            double d = Double.parseDouble(v);
            if (!(d >= min && d <= max)) {
                throw ConfigException.invalid(key, "must be between " + min + " and " + max + ", got " + shown(key, v));
            }
            return d;
        } catch (NumberFormatException e) {
            throw ConfigException.invalid(key, "must be a number, got " + shown(key, v));
        }
    }

    public boolean bool(String key) {
        String v = string(key).toLowerCase(java.util.Locale.ROOT);
        return switch (v) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw ConfigException.invalid(key, "must be true or false, got " + shown(key, v));
        };
    }

    /** Accepts 250ms, 30s, 5m, 2h, 1d or ISO-8601 (PT5M). */
    public Duration duration(String key, Duration min) {
        String v = string(key);
        Duration d = parseDuration(key, v);
        if (d.compareTo(min) < 0) {
            throw ConfigException.invalid(key, "must be at least " + min + ", got " + shown(key, v));
        }
        return d;
    }

    public <E extends Enum<E>> E choice(String key, Class<E> type) {
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

    private Duration parseDuration(String key, String v) {
        Matcher m = SHORT_DURATION.matcher(v);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        try {
            return Duration.parse(v);
        } catch (DateTimeParseException e) {
            throw ConfigException.invalid(key, "must be a duration such as 30s, 5m or PT5M, got " + shown(key, v));
        }
    }

    /** The offending value in quotes, or a placeholder for secrets. */
    static String shown(String key, String value) {
        boolean secret = ConfigKeys.find(key).map(ConfigKey::secret).orElse(false);
        return secret ? "(secret value not shown)" : "'" + value + "'";
    }
}
