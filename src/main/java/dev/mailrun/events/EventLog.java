package dev.mailrun.events;

import dev.mailrun.db.Transactions;
import dev.mailrun.events.delivery.Endpoint;
import dev.mailrun.events.store.AuditTable;
import dev.mailrun.events.store.DeliveryTable;
import dev.mailrun.events.store.EndpointTable;
import dev.mailrun.events.store.OutboxTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * What operators do with the outbox (`mailrun events …`): list deliveries, the endpoints' state,
 * replay an endpoint's events since a time (the same ids again), discard deliveries, enable a
 * disabled endpoint. Every change is audited in {@code event_audit} with who and why.
 */
public final class EventLog {

    /** The most deliveries one replay or list goes through. */
    public static final int MAX_ROWS = 1_000_000;
    private static final int CHUNK = 1000;

    private final DataSource dataSource;
    private final EventsSettings settings;
    private final Clock clock;
    private final OutboxTable outbox = new OutboxTable();
    private final DeliveryTable deliveries = new DeliveryTable();
    private final EndpointTable endpoints = new EndpointTable();
    private final AuditTable audit = new AuditTable();

    public EventLog(DataSource dataSource, EventsSettings settings, Clock clock) {
        this.dataSource = dataSource;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * One endpoint as operators see it: its pending deliveries and oldest pending event, and its
     * state — {@code ok}, {@code failing} (since, next try), {@code disabled}, or {@code not configured}
     * (a row left by an endpoint no longer in events.endpoints).
     */
    public record EndpointStatus(String name, String state, long pending, Optional<Instant> oldestPending,
                                 Optional<Instant> failingSince, Optional<Instant> nextAttemptAt, Optional<Instant> disabledAt,
                                 Optional<String> lastError) {}

    public List<DeliveryTable.Listed> list(DeliveryTable.Filter filter, int limit) throws SQLException {
        return list(filter, Optional.empty(), limit);
    }

    /** A page of deliveries, newest first, after {@code after} (the last of the previous page). */
    public List<DeliveryTable.Listed> list(DeliveryTable.Filter filter, Optional<DeliveryTable.Position> after, int limit)
            throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return deliveries.list(c, filter, after, limit);
        }
    }

    /** Every configured endpoint (in events.endpoints order), then any other endpoint the tables know. */
    public List<EndpointStatus> endpoints() throws SQLException {
        List<EndpointTable.State> rows;
        Map<String, DeliveryTable.Backlog> backlog;
        try (Connection c = dataSource.getConnection()) {
            rows = endpoints.all(c);
            backlog = deliveries.backlog(c);
        }
        Map<String, EndpointTable.State> byName = new LinkedHashMap<>();
        // A configured endpoint no worker has delivered to yet has no row: shown as it starts.
        settings.endpoints().forEach(e -> byName.put(e.name(), new EndpointTable.State(e.name(), null, null, 0, null, null, false)));
        rows.forEach(r -> byName.put(r.name(), r));
        List<EndpointStatus> out = new ArrayList<>();
        for (EndpointTable.State st : byName.values()) {
            DeliveryTable.Backlog b = backlog.getOrDefault(st.name(), new DeliveryTable.Backlog(0, Optional.empty()));
            String state = settings.endpoint(st.name()).isEmpty() ? "not configured" : st.disabledAt() != null ? "disabled"
                    : st.failingSince() != null ? "failing" : "ok";
            out.add(new EndpointStatus(st.name(), state, b.pending(), b.oldest(), Optional.ofNullable(st.failingSince()),
                    Optional.ofNullable(st.failingSince() == null ? null : st.nextAttemptAt()),
                    Optional.ofNullable(st.disabledAt()), Optional.ofNullable(st.lastError())));
        }
        return out;
    }

    public Map<String, DeliveryTable.Backlog> backlog() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return deliveries.backlog(c);
        }
    }

    /**
     * Makes every event since {@code since} that the endpoint's types take pending again for it, the
     * ones already delivered too (receivers get the same ids and deduplicate); returns how many.
     *
     * @throws UnknownEndpoint when the endpoint is not configured
     */
    public long replay(String endpoint, Instant since, String actor, String why) throws SQLException {
        Endpoint e = configured(endpoint);
        String reason = checkedWhy(why);
        long total = 0;
        long after = 0;
        while (true) {
            long from = after;
            List<OutboxTable.Unfanned> rows = Transactions.inTransaction(dataSource, c -> outbox.since(c, since, from, CHUNK));
            if (rows.isEmpty()) {
                break;
            }
            after = rows.get(rows.size() - 1).seq();
            List<Long> seqs = rows.stream().filter(r -> Subscriptions.takes(e, r.type())).map(OutboxTable.Unfanned::seq).toList();
            total += Transactions.inTransaction(dataSource, c -> deliveries.reopen(c, endpoint, seqs, clock.instant()));
        }
        long replayed = total;
        Transactions.inTransaction(dataSource, c -> {
            audit.record(c, new AuditTable.Entry("replay", endpoint, replayed, actor, reason, "since " + since), clock.instant());
            return null;
        });
        return replayed;
    }

    /** Discards the pending (or failed) deliveries {@code filter} selects; returns how many. */
    public int discard(DeliveryTable.Filter filter, String actor, String why) throws SQLException {
        String reason = checkedWhy(why);
        String endpoint = filter.endpoint().orElseThrow(() -> new IllegalArgumentException("--endpoint is required"));
        configured(endpoint);
        Instant now = clock.instant();
        return Transactions.inTransaction(dataSource, c -> {
            int n = deliveries.discard(c, filter, "discarded by " + actor + ": " + reason, now);
            audit.record(c, new AuditTable.Entry("discard", endpoint, n, actor, reason, describe(filter)), now);
            return n;
        });
    }

    /** Enables a disabled endpoint; false when it was not disabled. */
    public boolean enable(String endpoint, String actor, String why) throws SQLException {
        configured(endpoint);
        String reason = checkedWhy(why);
        return Transactions.inTransaction(dataSource, c -> {
            Optional<EndpointTable.State> s = endpoints.find(c, endpoint);
            if (s.isEmpty() || s.get().disabledAt() == null) {
                return false;
            }
            endpoints.enable(c, endpoint);
            audit.record(c, new AuditTable.Entry("enable", endpoint, 1, actor, reason, null), clock.instant());
            return true;
        });
    }

    /** The endpoint an operator named is not in events.endpoints. */
    public static final class UnknownEndpoint extends IllegalArgumentException {
        UnknownEndpoint(String message) {
            super(message);
        }
    }

    private Endpoint configured(String name) {
        return settings.endpoint(name).orElseThrow(() -> new UnknownEndpoint("no endpoint named '" + name
                + "' in events.endpoints (" + (settings.endpoints().isEmpty() ? "empty"
                : String.join(",", settings.endpoints().stream().map(Endpoint::name).toList())) + ")"));
    }

    private static String checkedWhy(String why) {
        String s = why == null ? "" : why.strip();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("--why must say why (it is kept in the audit)");
        }
        if (s.length() > 1000 || s.chars().anyMatch(ch -> ch < 0x20 || ch == 0x7f)) {
            throw new IllegalArgumentException("--why must be one line of at most 1000 characters");
        }
        return s;
    }

    private static String describe(DeliveryTable.Filter f) {
        return "status=" + f.status().map(DeliveryTable.Status::dbValue).orElse("pending,failed")
                + f.typePrefix().map(t -> " type=" + t).orElse("")
                + f.before().map(b -> " before=" + b).orElse("");
    }
}
