package dev.mailrun.app.config;

import dev.mailrun.events.delivery.Endpoint;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The endpoint names of {@code events.endpoints}, checked once so that every error about them names
 * that key, and their {@code events.<name>.*} keys: defaults first, then environment variables
 * ({@code events.crm.url} → {@code MAILRUN_EVENTS_CRM_URL}), as for the relays' keys.
 */
final class EndpointNames {

    private EndpointNames() {}

    static List<String> parse(String value) {
        List<String> names = new ArrayList<>();
        if (value == null || value.isBlank()) {
            return names;
        }
        Set<String> seen = new HashSet<>();
        for (String part : value.split(",", -1)) {
            String name = part.strip();
            if (!Endpoint.NAME.matcher(name).matches()) {
                throw ConfigException.invalid("events.endpoints", "endpoint name '" + name
                        + "' must be a lower-case letter followed by up to 31 lower-case letters, digits or '-'");
            }
            if (!seen.add(name)) {
                throw ConfigException.invalid("events.endpoints", "names endpoint '" + name + "' twice");
            }
            names.add(name);
        }
        return names;
    }

    /** Puts the named endpoints' keys into {@code values} (defaults, then variables); returns their names. */
    static Set<String> keys(Map<String, String> values, Map<String, String> env) {
        Set<String> known = new HashSet<>();
        for (String endpoint : parse(values.get("events.endpoints"))) {
            for (String suffix : ConfigKeys.endpointSuffixes()) {
                String name = ConfigKeys.endpointKey(endpoint, suffix);
                known.add(name);
                ConfigKey key = ConfigKeys.find(name).orElseThrow();
                values.putIfAbsent(name, key.defaultValue());
                String v = env.get(key.envName());
                if (v != null) {
                    values.put(name, v);
                }
            }
        }
        return known;
    }
}
