package dev.mailrun.campaign.model;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The configured domain groups. Each domain belongs to at most one group; a domain in none is paced
 * by the relay's rate alone.
 *
 * <p>{@link #DEFAULTS} are the largest mailbox providers, shipped without caps: an operator sets
 * {@code policy.domain.gmail.rate=5/s} and the group is there. Uncapped groups still matter: a
 * "too fast" deferral from one of their domains slows the whole provider down.
 */
public record DomainGroups(List<DomainGroup> groups) {

    public static final DomainGroups NONE = new DomainGroups(List.of());

    /** The shipped groups, each without a cap. */
    public static final DomainGroups DEFAULTS = new DomainGroups(List.of(
            new DomainGroup("gmail", List.of("gmail.com", "googlemail.com"), 0),
            new DomainGroup("microsoft", List.of("outlook.com", "hotmail.com", "live.com", "msn.com",
                    "hotmail.co.uk", "hotmail.fr", "hotmail.de", "outlook.de", "outlook.fr", "live.co.uk"), 0),
            new DomainGroup("yahoo", List.of("yahoo.com", "ymail.com", "rocketmail.com", "aol.com",
                    "yahoo.co.uk", "yahoo.fr", "yahoo.de", "yahoo.co.jp"), 0),
            new DomainGroup("apple", List.of("icloud.com", "me.com", "mac.com"), 0),
            new DomainGroup("gmx", List.of("gmx.de", "gmx.net", "gmx.com", "web.de"), 0),
            new DomainGroup("yandex", List.of("yandex.ru", "yandex.com", "ya.ru"), 0)));

    public DomainGroups {
        groups = List.copyOf(groups);
        Map<String, String> owner = new HashMap<>();
        for (DomainGroup g : groups) {
            for (String d : g.domains()) {
                String other = owner.putIfAbsent(d, g.name());
                if (other != null) {
                    throw new IllegalArgumentException("domain " + d + " is in both domain groups " + other + " and " + g.name());
                }
            }
        }
        if (groups.stream().map(DomainGroup::name).distinct().count() != groups.size()) {
            throw new IllegalArgumentException("two domain groups have the same name");
        }
    }

    public Optional<DomainGroup> named(String name) {
        return groups.stream().filter(g -> g.name().equals(name)).findFirst();
    }

    /** The group of {@code domain} (lower case), if any. */
    public Optional<DomainGroup> of(String domain) {
        for (DomainGroup g : groups) {
            if (g.domains().contains(domain)) {
                return Optional.of(g);
            }
        }
        return Optional.empty();
    }
}
