package dev.mailrun.campaign.store.recipient;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mailrun.db.Sql;
import dev.mailrun.events.RecipientLookup;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an event delivery says of its recipients: their address and imported fields, one statement
 * per batch of events (the outbox's rows carry only the recipient's id, to keep the flush's INSERT small).
 */
public final class RecipientFields implements RecipientLookup {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};

    @Override
    public Map<Long, Recipient> find(Connection c, Collection<Long> recipientIds) throws SQLException {
        Map<Long, Recipient> found = new HashMap<>();
        if (recipientIds.isEmpty()) {
            return found;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT id, email, fields FROM recipient WHERE id IN ("
                + Sql.placeholders(recipientIds.size()) + ")")) {
            int i = 1;
            for (long id : recipientIds) {
                ps.setLong(i++, id);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.put(rs.getLong(1), new Recipient(rs.getString(2), fields(rs.getString(3))));
                }
            }
        }
        return found;
    }

    private static Map<String, Object> fields(String json) {
        if (json == null || json.isBlank()) {
            return Map.of();
        }
        try {
            return JSON.readValue(json, MAP);
        } catch (IOException e) {
            // The importer writes the column from a map; a row that does not read back is reported without its fields.
            return Map.of();
        }
    }
}
