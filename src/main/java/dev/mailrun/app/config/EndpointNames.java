package dev.mailrun.app.config;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The {@code events.<name>.*} keys of the endpoints named in {@code events.endpoints}: defaults
 * first, then environment variables ({@code events.crm.url} → {@code MAILRUN_EVENTS_CRM_URL}), as
 * for the relays' keys.
 */
final class EndpointNames {

    private EndpointNames() {}

    /** Puts the named endpoints' keys into {@code values} (defaults, then variables); returns their names. */
    static Set<String> keys(Map<String, String> values, Map<String, String> env) {
        Set<String> known = new HashSet<>();
        for (String endpoint : NameList.endpoints(values.get("events.endpoints"))) {
            for (String suffix : ConfigKeys.endpointSuffixes()) {
                String name = ConfigKeys.endpointKey(endpoint, suffix);
                known.add(name);
                ConfigKeys.defaultThenEnv(values, env, name);
            }
        }
        return known;
    }
}
