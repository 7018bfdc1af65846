package dev.mailrun.events;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Map;

/**
 * The recipients events are about, read when they are delivered: the address (results are written
 * without it, to keep the flush's INSERT small) and the fields imported with the recipient.
 * The campaign side implements it; the outbox knows no recipient table.
 */
public interface RecipientLookup {

    record Recipient(String email, Map<String, Object> fields) {}

    Map<Long, Recipient> find(Connection c, Collection<Long> recipientIds) throws SQLException;

    RecipientLookup NONE = (c, ids) -> Map.of();
}
