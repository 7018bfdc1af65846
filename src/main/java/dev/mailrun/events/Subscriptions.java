package dev.mailrun.events;

import dev.mailrun.db.Transactions;
import dev.mailrun.events.delivery.Endpoint;
import dev.mailrun.events.store.SubscriptionTable;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * Which endpoint takes which type, in the one place both sides read it: the dispatcher's fan-out and
 * replays ({@link #takes}), and the outbox, which writes an event only when some endpoint takes its
 * type. The outbox reads that from {@code event_subscription} in the writing transaction, so every
 * process writing events (the worker, a CLI command, the HTTP API) follows the workers' endpoints;
 * {@link #register} puts them there.
 */
public final class Subscriptions {

    private Subscriptions() {}

    /** Whether {@code endpoint} takes events of {@code type} (an optional type only when named). */
    public static boolean takes(Endpoint endpoint, String type) {
        return endpoint.types().takes(type, EventType.fromWire(type).map(EventType::optional).orElse(false));
    }

    /**
     * Replaces the stored subscriptions with {@code settings}' endpoints: from the commit on, events of
     * a type no endpoint takes are not written. Every worker registers as its dispatcher starts; the
     * workers share one configuration, as they share the database.
     */
    public static void register(DataSource dataSource, EventsSettings settings) throws SQLException {
        Map<String, Set<String>> types = new LinkedHashMap<>();
        for (Endpoint e : settings.endpoints()) {
            types.put(e.name(), Arrays.stream(EventType.values()).map(EventType::wireName).filter(t -> takes(e, t))
                    .collect(Collectors.toCollection(java.util.LinkedHashSet::new)));
        }
        Transactions.inTransaction(dataSource, c -> {
            new SubscriptionTable().replace(c, types);
            return null;
        });
    }
}
