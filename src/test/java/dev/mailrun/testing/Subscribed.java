package dev.mailrun.testing;

import dev.mailrun.db.Transactions;
import dev.mailrun.events.EventType;
import dev.mailrun.events.store.SubscriptionTable;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The outbox writes an event only when some endpoint takes its type ({@code event_subscription});
 * tests about what a change writes subscribe a stand-in endpoint to the types they look for.
 */
public final class Subscribed {

    private Subscribed() {}

    /** Every type, the optional ones too. */
    public static void toEverything(DataSource dataSource) throws SQLException {
        to(dataSource, Arrays.stream(EventType.values()).collect(Collectors.toSet()));
    }

    public static void to(DataSource dataSource, Set<EventType> types) throws SQLException {
        Transactions.inTransaction(dataSource, c -> {
            new SubscriptionTable().replace(c, Map.of("test", types.stream().map(EventType::wireName).collect(Collectors.toSet())));
            return null;
        });
    }
}
