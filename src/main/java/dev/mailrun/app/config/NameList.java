package dev.mailrun.app.config;

import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.events.delivery.Endpoint;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A comma-separated list of names that other keys are named after ({@code smtp.relays},
 * {@code events.endpoints}): checked once, so every error about a name names the list's key.
 */
final class NameList {

    private NameList() {}

    /** The relay names of {@code smtp.relays}. */
    static List<String> relays(String value) {
        return parse("smtp.relays", "relay", RelayRoute.NAME, value);
    }

    /** The endpoint names of {@code events.endpoints}. */
    static List<String> endpoints(String value) {
        return parse("events.endpoints", "endpoint", Endpoint.NAME, value);
    }

    private static List<String> parse(String key, String noun, Pattern pattern, String value) {
        List<String> names = new ArrayList<>();
        if (value == null || value.isBlank()) {
            return names;
        }
        Set<String> seen = new HashSet<>();
        for (String part : value.split(",", -1)) {
            String name = part.strip();
            if (!pattern.matcher(name).matches()) {
                throw ConfigException.invalid(key, noun + " name '" + name
                        + "' must be a lower-case letter followed by up to 31 lower-case letters, digits or '-'");
            }
            if (!seen.add(name)) {
                throw ConfigException.invalid(key, "names " + noun + " '" + name + "' twice");
            }
            names.add(name);
        }
        return names;
    }
}
