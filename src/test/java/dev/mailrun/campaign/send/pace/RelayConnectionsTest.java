package dev.mailrun.campaign.send.pace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two workers' runs sharing one relay's connection limit through the database. */
class RelayConnectionsTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @Test
    void a_limit_one_worker_learned_caps_the_other_workers_pool_until_it_lapses() throws Exception {
        String relay = "relay-shared-limit";
        RelayConnections first = new RelayConnections(relay);
        RelayConnections second = new RelayConnections(relay);
        List<Integer> secondPool = new CopyOnWriteArrayList<>();
        second.attach(secondPool::add);

        try (Connection c = db.dataSource().getConnection()) {
            // The first worker's pool had 6 open when the relay turned the seventh away; two runs
            // share the relay, so the relay served about 12 in all.
            first.refused(6, "421 4.7.0 Error: too many connections from 192.0.2.1");
            assertThat(first.sync(c, "run-1", 2)).contains(6);

            Optional<Integer> part = second.sync(c, "run-2", 2);
            second.apply(part);
            assertThat(part).contains(6);
            assertThat(secondPool).containsExactly(6);

            // Alone on the relay, the second run may use the whole limit.
            second.apply(second.sync(c, "run-2", 1));
            assertThat(secondPool).containsExactly(6, 12);

            // A lower refusal wins; a higher one within the 30 minutes does not raise the limit.
            first.refused(2, "421 too many connections");
            first.sync(c, "run-1", 2);
            first.refused(10, "421 too many connections");
            first.sync(c, "run-1", 2);
            assertThat(second.sync(c, "run-2", 1)).contains(4);

            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE relay_connection_limit SET lowered_at = UTC_TIMESTAMP(3) - INTERVAL 31 MINUTE WHERE relay = ?""")) {
                ps.setString(1, relay);
                ps.executeUpdate();
            }
            second.apply(second.sync(c, "run-2", 1));
            assertThat(secondPool).as("a lapsed limit lifts the cap").endsWith(Integer.MAX_VALUE);
        }
    }
}
