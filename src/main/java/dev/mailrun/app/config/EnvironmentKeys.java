package dev.mailrun.app.config;

import dev.mailrun.campaign.send.route.Relays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses an environment variable that looks like a configuration key but names none
 * ({@code MAILRUN_SMTP_A_HOSTT}, or {@code MAILRUN_SMTP_C_HOST} with no relay {@code c}), as the same
 * key in the properties file is refused: a typo must not silently fall back to a default.
 *
 * <p>Only variables in a key's namespace are checked: {@code MAILRUN_} followed by the first part of
 * some key ({@code MAILRUN_SMTP_…}, {@code MAILRUN_DB_…}). Other {@code MAILRUN_} variables
 * ({@code MAILRUN_JAVA_OPTS} for the start script, {@code MAILRUN_TEST_DB_URL} for the tests) are
 * not configuration and are left alone.
 */
final class EnvironmentKeys {

    private static final String PREFIX = "MAILRUN_";

    private EnvironmentKeys() {}

    /**
     * @param relays the relays {@code smtp.relays} names: their keys are the only per-relay keys
     * @param endpoints the endpoints {@code events.endpoints} names: likewise for the per-endpoint keys
     * @throws ConfigException naming the first (in name order) variable that is no key
     */
    static void check(Map<String, String> env, List<String> relays, List<String> endpoints) {
        Set<String> known = new HashSet<>();
        Set<String> namespaces = new HashSet<>();
        for (ConfigKey key : ConfigKeys.all()) {
            namespaces.add(PREFIX + key.name().substring(0, key.name().indexOf('.')).toUpperCase(Locale.ROOT) + "_");
            if (!ConfigKeys.isTemplate(key)) {
                known.add(key.envName());
            }
        }
        for (String relay : relays) {
            if (relay.equals(Relays.DEFAULT)) {
                continue; // its keys are the single-relay ones, smtp.host and so on
            }
            for (String suffix : ConfigKeys.relaySuffixes()) {
                ConfigKeys.find(ConfigKeys.relayKey(relay, suffix)).ifPresent(k -> known.add(k.envName()));
            }
        }
        for (String endpoint : endpoints) {
            for (String suffix : ConfigKeys.endpointSuffixes()) {
                ConfigKeys.find(ConfigKeys.endpointKey(endpoint, suffix)).ifPresent(k -> known.add(k.envName()));
            }
        }
        for (String name : new TreeSet<>(env.keySet())) {
            if (known.contains(name) || namespaces.stream().noneMatch(name::startsWith)) {
                continue;
            }
            throw new ConfigException("environment variable " + name + " is no configuration key" + hint(name, relays));
        }
    }

    private static String hint(String name, List<String> relays) {
        String smtp = PREFIX + "SMTP_";
        for (String suffix : ConfigKeys.relaySuffixes()) {
            String end = "_" + suffix.toUpperCase(Locale.ROOT).replace('-', '_');
            if (name.startsWith(smtp) && name.endsWith(end) && name.length() > smtp.length() + end.length()) {
                String relay = name.substring(smtp.length(), name.length() - end.length()).toLowerCase(Locale.ROOT);
                return ": it would set smtp." + relay + "." + suffix + ", which belongs to no relay named in smtp.relays ("
                        + (relays.isEmpty() ? "empty" : String.join(",", relays)) + ")";
            }
        }
        if (name.startsWith(PREFIX + "POLICY_DOMAIN_")) {
            return ": a domain group of your own is configured in the properties file (only the shipped groups'"
                    + " keys can be set from the environment)";
        }
        return " (every key's variable is MAILRUN_ and the key in upper case with '.' and '-' as '_';"
                + " see mailrun.properties.example)";
    }
}
