package dev.mailrun.events;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

/**
 * The event types some endpoint takes ({@link EventOutbox#takenTypes}), read at first use and then
 * kept: one per sending run, whose flushes each read them before (a statement per flush, for a
 * table that changes only when a worker starts with other endpoints). A run therefore writes the
 * types that were taken when it began; a change reaches a campaign's events from its next run.
 */
public final class TakenTypes {

    private final EventOutbox outbox = new EventOutbox();
    private volatile Set<String> types;

    /** The types, read in {@code c}'s transaction the first time. */
    public Set<String> in(Connection c) throws SQLException {
        Set<String> read = types;
        if (read == null) {
            read = Set.copyOf(outbox.takenTypes(c));
            types = read;
        }
        return read;
    }
}
