package dev.mailrun.app.config;

import dev.mailrun.campaign.model.RelayRoute;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The relay names of {@code smtp.relays}: checked once, so every error about them names that key. */
final class RelayNames {

    private RelayNames() {}

    static List<String> parse(String value) {
        List<String> names = new ArrayList<>();
        if (value == null || value.isBlank()) {
            return names;
        }
        Set<String> seen = new HashSet<>();
        for (String part : value.split(",", -1)) {
            String name = part.strip();
            if (!RelayRoute.NAME.matcher(name).matches()) {
                throw ConfigException.invalid("smtp.relays", "relay name '" + name
                        + "' must be a lower-case letter followed by up to 31 lower-case letters, digits or '-'");
            }
            if (!seen.add(name)) {
                throw ConfigException.invalid("smtp.relays", "names relay '" + name + "' twice");
            }
            names.add(name);
        }
        return names;
    }
}
