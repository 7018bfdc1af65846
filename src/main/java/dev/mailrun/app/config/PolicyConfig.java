package dev.mailrun.app.config;

import dev.mailrun.campaign.model.DomainGroup;
import dev.mailrun.campaign.model.DomainGroups;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The domain groups of the sending policy from {@code policy.domain.<name>.domains} and
 * {@code .rate}: the shipped groups (whose keys have defaults) and any the operator adds. Every
 * problem is a configuration error naming the key.
 */
final class PolicyConfig {

    private PolicyConfig() {
    }

    static DomainGroups domainGroups(RawConfig raw) {
        Set<String> names = new LinkedHashSet<>();
        for (String key : raw.keysStartingWith(ConfigKeys.GROUP_PREFIX)) {
            ConfigKeys.groupOf(key).ifPresent(names::add);
        }
        List<DomainGroup> groups = new ArrayList<>();
        java.util.Map<String, String> owner = new java.util.HashMap<>();
        for (String name : names) {
            String domainsKey = ConfigKeys.GROUP_PREFIX + name + ".domains";
            String rateKey = ConfigKeys.GROUP_PREFIX + name + ".rate";
            Optional<String> domains = has(raw, domainsKey) ? raw.optional(domainsKey) : Optional.empty();
            if (domains.isEmpty()) {
                if (has(raw, rateKey) && raw.optional(rateKey).isPresent()) {
                    throw ConfigException.invalid(domainsKey, "must be set when " + rateKey + " is");
                }
                continue;   // a shipped group emptied by the operator: no group
            }
            double rate;
            try {
                rate = has(raw, rateKey) ? DomainGroup.parseRate(raw.string(rateKey)) : 0;
            } catch (IllegalArgumentException e) {
                throw ConfigException.invalid(rateKey, e.getMessage());
            }
            List<String> list = Arrays.stream(domains.get().split(","))
                    .map(d -> d.trim().toLowerCase(Locale.ROOT)).filter(d -> !d.isEmpty()).toList();
            for (String d : list) {
                String other = owner.putIfAbsent(d, name);
                if (other != null && !other.equals(name)) {
                    throw ConfigException.invalid(domainsKey, d + " is also in the " + other + " group (a domain is paced by one group)");
                }
            }
            try {
                groups.add(new DomainGroup(name, list, rate));
            } catch (IllegalArgumentException e) {
                throw ConfigException.invalid(domainsKey, e.getMessage());
            }
        }
        try {
            return new DomainGroups(groups);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("configuration: " + e.getMessage());
        }
    }

    private static boolean has(RawConfig raw, String key) {
        return raw.keysStartingWith(key).contains(key);
    }
}
