package dev.mailrun.events;

import dev.mailrun.events.delivery.Endpoint;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where events go ({@code events.*}): the endpoints in order, whether each recipient event carries
 * the recipient's imported fields, how often the dispatcher looks for new events, and how long
 * events are kept (the one way an undelivered event leaves the outbox besides an operator's discard).
 */
public record EventsSettings(List<Endpoint> endpoints, boolean includeFields, Duration poll, Duration retention) {

    public static final EventsSettings NONE = new EventsSettings(List.of(), false, Duration.ofSeconds(1), Duration.ofDays(30));

    public EventsSettings {
        endpoints = List.copyOf(endpoints);
        Set<String> names = new HashSet<>();
        for (Endpoint e : endpoints) {
            if (!names.add(e.name())) {
                throw new IllegalArgumentException("events.endpoints names endpoint '" + e.name() + "' twice");
            }
        }
        if (poll.isNegative() || poll.isZero()) {
            throw new IllegalArgumentException("events.poll must be positive");
        }
        if (retention.compareTo(Duration.ofDays(1)) < 0) {
            throw new IllegalArgumentException("events.retention must be at least 1d");
        }
    }

    public Optional<Endpoint> endpoint(String name) {
        return endpoints.stream().filter(e -> e.name().equals(name)).findFirst();
    }
}
