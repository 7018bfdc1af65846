package dev.mailrun.campaign.suppression;

import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.SuppressionRemovalTable;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.events.EventOutbox;
import dev.mailrun.events.EventType;
import dev.mailrun.events.OutboxEvent;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * What an operator asks of the suppression list one address at a time: is it on it, list the newest,
 * take one off. A removal is never silent: it needs a reason and leaves an audit row
 * ({@code suppression_removal}) with the suppression it undid, in the same transaction as the delete.
 */
public final class SuppressionList {

    static final int MAX_WHY = 1000;

    /** A page of the list, and how many suppressions match in all. */
    public record Listing(List<SuppressionTable.Stored> rows, long total) {}

    /** One address: its suppression if it has one, and its latest removal from the list if it ever had one. */
    public record Status(String key, Optional<SuppressionTable.Stored> suppression,
                         Optional<SuppressionRemovalTable.Removal> lastRemoval) {}

    private final DataSource dataSource;
    private final Clock clock;
    private final SuppressionTable table = new SuppressionTable();
    private final SuppressionRemovalTable removals = new SuppressionRemovalTable();
    private final EventOutbox events = new EventOutbox();

    public SuppressionList(DataSource dataSource, Clock clock) {
        this.dataSource = dataSource;
        this.clock = clock;
    }

    public Listing newest(SuppressionTable.Filter filter, int limit) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return new Listing(table.newest(c, filter, limit), table.count(c, filter));
        }
    }

    /** Up to {@code limit} suppressions matching {@code filter} after {@code afterKey} in address order: a page that inserts do not shift. */
    public List<SuppressionTable.Stored> page(SuppressionTable.Filter filter, String afterKey, int limit) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return table.page(c, filter, afterKey, limit);
        }
    }

    public Status check(EmailAddress address) throws SQLException {
        String key = address.suppressionKey();
        try (Connection c = dataSource.getConnection()) {
            return new Status(key, table.find(c, key), removals.latest(c, key));
        }
    }

    /**
     * Puts the address on the list; false when it was on it already (it keeps its first reason).
     *
     * @param source who or what put it there, as the list shows it (e.g. {@code api:crm})
     */
    public boolean add(EmailAddress address, SuppressionReason reason, String source) throws SQLException {
        SuppressionTable.Entry entry = new SuppressionTable.Entry(address.suppressionKey(), reason, source);
        Instant now = clock.instant();
        return Transactions.inTransaction(dataSource, c -> table.add(c, List.of(entry), now)) == 1;
    }

    /**
     * Takes the address off the list and records why; empty when it was not on the list (nothing
     * changed, nothing recorded).
     *
     * @throws IllegalArgumentException when {@code why} is blank, longer than {@link #MAX_WHY}
     *                                  characters, or not one line
     */
    public Optional<SuppressionTable.Stored> remove(EmailAddress address, String why, String removedBy) throws SQLException {
        String reason = checkedWhy(why);
        String key = address.suppressionKey();
        return Transactions.inTransaction(dataSource, c -> {
            Optional<SuppressionTable.Stored> row = table.lock(c, key);
            if (row.isPresent()) {
                removals.record(c, new SuppressionRemovalTable.Removal(row.get(), reason, removedBy, clock.instant()));
                table.delete(c, key);
                events.write(c, List.of(OutboxEvent.of(EventType.RECIPIENT_UNSUPPRESSED, null, null, key,
                        OutboxEvent.fields("reason", row.get().reason(), "by", removedBy, "why", reason))), clock.instant());
            }
            return row;
        });
    }

    private static String checkedWhy(String why) {
        String s = why == null ? "" : why.strip();
        if (s.isEmpty()) {
            throw InvalidFields.of("why", "must say why the address may be mailed again");
        }
        if (s.length() > MAX_WHY) {
            throw InvalidFields.of("why", "is longer than " + MAX_WHY + " characters");
        }
        if (s.chars().anyMatch(ch -> ch < 0x20 || ch == 0x7f || ch == 0x85 || ch == 0x2028 || ch == 0x2029)) {
            throw InvalidFields.of("why", "must be one line of text without control characters");
        }
        return s;
    }
}
