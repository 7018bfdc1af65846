package dev.mailrun.campaign.send.route;

import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.mail.smtp.SmtpSettings;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The configured relays by name, and the default route: the one a campaign created without
 * {@code --relay} sends through ({@code smtp.relays} in order, with the relays' weights).
 */
public record Relays(Map<String, Relay> byName, RelayRoute defaultRoute) {

    /** The relay the single-relay keys ({@code smtp.host}, …) define. */
    public static final String DEFAULT = "default";

    public Relays {
        byName = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byName));
        java.util.Objects.requireNonNull(defaultRoute, "defaultRoute");
        byName.forEach((name, relay) -> {
            if (!name.equals(relay.name())) {
                throw new IllegalArgumentException("relay " + relay.name() + " filed as " + name);
            }
        });
        for (String name : defaultRoute.relays()) {
            if (!byName.containsKey(name)) {
                throw new IllegalArgumentException("the default route names relay '" + name + "', which is not configured");
            }
        }
    }

    /** One relay, the whole default route, at the rate {@code smtp} holds. */
    public static Relays single(String name, SmtpSettings smtp) {
        return new Relays(Map.of(name, new Relay(name, smtp)), RelayRoute.of(name));
    }

    Optional<Relay> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The relays of {@code route}, in its order; every one must be configured. */
    public List<Relay> of(RelayRoute route) {
        return route.relays().stream().map(name -> find(name).orElseThrow(() -> new IllegalArgumentException(
                unknownIn(route).orElse("relay '" + name + "': not configured")))).toList();
    }

    /** Why {@code route} cannot be used here: the first relay it names that is not configured. */
    public Optional<String> unknownIn(RelayRoute route) {
        return route.relays().stream().filter(name -> !byName.containsKey(name)).findFirst()
                .map(name -> "relay '" + name + "': not configured (configured: " + String.join(", ", byName.keySet()) + ")");
    }

    /** The first relay of the default route: where a single test message goes. */
    public Relay first() {
        return byName.get(defaultRoute.relays().get(0));
    }

    /**
     * The fastest of {@code relays}' configured rates, 0 when none has a limit: what a domain group
     * without a cap of its own adapts down from once it answers "too fast", wherever its recipients
     * are sent through.
     */
    public static double fastest(Collection<Relay> relays) {
        double fastest = 0;
        for (Relay relay : relays) {
            fastest = Math.max(fastest, relay.rate());
        }
        return fastest;
    }
}
