package dev.mailrun.events.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The statements of {@code event_subscription}: which endpoint takes which event type. */
public final class SubscriptionTable {

    /** Replaces every row with {@code types} (endpoint to the types it takes), in the caller's transaction. */
    public void replace(Connection c, Map<String, Set<String>> types) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM event_subscription");
        }
        List<Map.Entry<String, String>> rows = types.entrySet().stream()
                .flatMap(e -> e.getValue().stream().map(t -> Map.entry(e.getKey(), t))).toList();
        if (rows.isEmpty()) {
            return;
        }
        // Two workers starting together replace the rows at once: the second's insert meets the first's
        // rows once that commits, and for the same settings they are the same rows, not an error.
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO event_subscription (endpoint, type) VALUES "
                + String.join(", ", Collections.nCopies(rows.size(), "(?, ?)")) + " ON DUPLICATE KEY UPDATE endpoint = endpoint")) {
            int i = 1;
            for (Map.Entry<String, String> r : rows) {
                ps.setString(i++, r.getKey());
                ps.setString(i++, r.getValue());
            }
            ps.executeUpdate();
        }
    }

    /** The types some endpoint takes. */
    public Set<String> types(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT type FROM event_subscription");
             ResultSet rs = ps.executeQuery()) {
            Set<String> out = new HashSet<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }
}
