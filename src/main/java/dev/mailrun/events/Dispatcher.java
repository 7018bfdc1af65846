package dev.mailrun.events;

import dev.mailrun.db.Transactions;
import dev.mailrun.events.delivery.Backoff;
import dev.mailrun.events.delivery.Endpoint;
import dev.mailrun.events.delivery.Reply;
import dev.mailrun.events.delivery.WebhookClient;
import dev.mailrun.events.store.DeliveryTable;
import dev.mailrun.events.store.DeliveryTable.StoredEvent;
import dev.mailrun.events.store.EndpointTable;
import dev.mailrun.events.store.OutboxTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.random.RandomGenerator;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers the outbox to the endpoints. One {@link #pass()}:
 * <ol>
 *   <li>fans out: the events no pass has seen yet (locked, so two workers never take the same, and
 *       in order) get a pending delivery for each endpoint whose types take them;</li>
 *   <li>for each endpoint neither disabled nor backing off: takes its lease (the database's clock,
 *       so one worker at a time delivers to it, and a dead worker's lease runs out), then sends its
 *       oldest pending deliveries in batches, in the order the events were written — so the events
 *       of one recipient arrive in the order they happened — renewing the lease while it sends;</li>
 *   <li>records each batch's verdict in a transaction fenced by the lease: delivered; refused for
 *       good (a 4xx other than 408 and 429, with the reply); or tried again after a back-off, the
 *       batch at the head of the queue, and the endpoint disabled once it has been failing for
 *       {@code disable-after} (an {@code endpoint.disabled} event, a metric, a warning);</li>
 *   <li>at most once a minute, expires events older than {@code events.retention}.</li>
 * </ol>
 * Delivery is at least once: a worker killed after the endpoint took a batch and before the verdict
 * committed leaves it pending, and the next holder sends it again with the same event ids.
 */
public final class Dispatcher {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);
    private static final int FAN_OUT_CHUNK = 1000;
    /** Batches one endpoint gets per pass before the next endpoint's turn. */
    private static final int BATCHES_PER_PASS = 50;
    private static final Duration LEASE_MARGIN = Duration.ofSeconds(30);
    /**
     * How long a lease is used before it is renewed: what is left of it then is still the
     * endpoint's timeout plus 10 s, so a request started before the renewal ends inside the lease.
     * (Renewing before every batch would cost a commit per batch: a third of a small batch's time.)
     */
    private static final Duration RENEW_AFTER = LEASE_MARGIN.minusSeconds(10);
    private static final Duration EXPIRY_EVERY = Duration.ofMinutes(1);

    private final DataSource dataSource;
    private final EventsSettings settings;
    private final Clock clock;
    private final WebhookClient client;
    private final RecipientLookup recipients;
    private final DeliveryListener listener;
    private final Backoff backoff;
    private final String token = UUID.randomUUID().toString();
    private final OutboxTable outbox = new OutboxTable();
    private final DeliveryTable deliveries = new DeliveryTable();
    private final EndpointTable endpoints = new EndpointTable();
    private final EventOutbox events = new EventOutbox();
    private Instant lastExpiry = Instant.MIN;
    private boolean registered;

    public Dispatcher(DataSource dataSource, EventsSettings settings, Clock clock, WebhookClient client,
                      RecipientLookup recipients, DeliveryListener listener, RandomGenerator random) {
        this.dataSource = dataSource;
        this.settings = settings;
        this.clock = clock;
        this.client = client;
        this.recipients = recipients;
        this.listener = listener;
        this.backoff = new Backoff(random);
    }

    /** One pass; returns how many events were delivered. The first registers the endpoints' subscriptions. */
    public synchronized long pass() throws SQLException {
        if (!registered) {
            Subscriptions.register(dataSource, settings);
            registered = true;
        }
        while (fanOut() == FAN_OUT_CHUNK) {
            // a backlog: fan out all of it before delivering, so each endpoint sees the events in order
        }
        long delivered = 0;
        for (Endpoint e : settings.endpoints()) {
            delivered += deliver(e);
        }
        expireIfDue();
        return delivered;
    }

    private int fanOut() throws SQLException {
        Map<String, Long> byType = new HashMap<>();
        int n = Transactions.inTransaction(dataSource, c -> {
            List<OutboxTable.Unfanned> rows = outbox.unfanned(c, FAN_OUT_CHUNK);
            if (rows.isEmpty()) {
                return 0;
            }
            Instant now = clock.instant();
            for (Endpoint e : settings.endpoints()) {
                endpoints.ensure(c, e.name());
                deliveries.add(c, e.name(), rows.stream().filter(r -> Subscriptions.takes(e, r.type()))
                        .map(OutboxTable.Unfanned::seq).toList(), now);
            }
            outbox.markFanned(c, rows.stream().map(OutboxTable.Unfanned::seq).toList());
            rows.forEach(r -> byType.merge(r.type(), 1L, Long::sum));
            return rows.size();
        });
        byType.forEach(listener::written);
        return n;
    }

    private long deliver(Endpoint e) throws SQLException {
        Duration lease = e.timeout().plus(LEASE_MARGIN);
        boolean due = Transactions.inTransaction(dataSource, c -> {
            endpoints.ensure(c, e.name());
            EndpointTable.State s = endpoints.find(c, e.name()).orElseThrow();
            return s.disabledAt() == null && (s.nextAttemptAt() == null || !clock.instant().isBefore(s.nextAttemptAt()));
        });
        if (!due) {
            return 0;
        }
        long delivered = 0;
        long leasedAt = 0;
        try {
            for (int i = 0; i < BATCHES_PER_PASS; i++) {
                if (i == 0 || System.nanoTime() - leasedAt > RENEW_AFTER.toNanos()) {
                    leasedAt = System.nanoTime();
                    if (!Transactions.inTransaction(dataSource, c -> endpoints.lease(c, e.name(), token, lease))) {
                        break;   // another worker delivers to it, or it was disabled meanwhile
                    }
                }
                List<StoredEvent> batch = Transactions.inTransaction(dataSource, c -> deliveries.pending(c, e.name(), e.batch()));
                if (batch.isEmpty()) {
                    break;
                }
                Outcome o = send(e, batch);
                if (o == Outcome.DELIVERED) {
                    delivered += batch.size();
                } else if (o != Outcome.REFUSED) {
                    break;
                }
            }
        } finally {
            Transactions.inTransaction(dataSource, c -> {
                endpoints.release(c, e.name(), token);
                return null;
            });
        }
        return delivered;
    }

    private enum Outcome { DELIVERED, REFUSED, RETRY, LEASE_LOST }

    private Outcome send(Endpoint e, List<StoredEvent> batch) throws SQLException {
        boolean single = e.batch() == 1;
        Map<Long, RecipientLookup.Recipient> found = lookup(batch);
        byte[] body = Payloads.body(batch, single, found, settings.includeFields());
        Reply reply = client.post(e, Payloads.messageId(batch, single), body);
        List<Long> seqs = batch.stream().map(StoredEvent::seq).toList();
        Instant now = clock.instant();
        Outcome outcome = Transactions.inTransaction(dataSource, c -> {
            if (!endpoints.holds(c, e.name(), token)) {
                return Outcome.LEASE_LOST;
            }
            return switch (reply.verdict()) {
                case DELIVERED -> {
                    deliveries.finish(c, e.name(), seqs, DeliveryTable.Status.DELIVERED, reply.summary(), now);
                    endpoints.succeeded(c, e.name());
                    yield Outcome.DELIVERED;
                }
                case REFUSED -> {
                    // The endpoint answers: the refusal ends these deliveries, not the endpoint's health.
                    deliveries.finish(c, e.name(), seqs, DeliveryTable.Status.FAILED, reply.summary(), now);
                    endpoints.succeeded(c, e.name());
                    yield Outcome.REFUSED;
                }
                case RETRY -> {
                    retry(c, e, seqs, reply, now);
                    yield Outcome.RETRY;
                }
            };
        });
        tell(e, batch, outcome, reply);
        return outcome;
    }

    private void retry(Connection c, Endpoint e, List<Long> seqs, Reply reply, Instant now) throws SQLException {
        deliveries.attempted(c, e.name(), seqs, reply.summary());
        int failures = endpoints.find(c, e.name()).map(EndpointTable.State::failures).orElse(0) + 1;
        Instant next = now.plus(backoff.next(failures, reply.retryAfter()));
        Instant since = endpoints.failed(c, e.name(), now, next, reply.summary());
        if (!now.isBefore(since.plus(e.disableAfter())) && endpoints.disable(c, e.name(), now)) {
            events.write(c, List.of(OutboxEvent.of(EventType.ENDPOINT_DISABLED, null, null, null, OutboxEvent.fields(
                    "endpoint", e.name(), "failing_since", Payloads.RFC_3339.format(since), "last_error", reply.summary()))), now);
            log.warn("events: endpoint {} disabled: failing since {} (events.{}.disable-after {}), last: {}; its events stay"
                    + " pending until `mailrun events enable --endpoint {}`", e.name(), since, e.name(), e.disableAfter(),
                    reply.summary(), e.name());
            listener.disabled(e.name());
        } else if (failures == 1) {
            log.warn("events: delivery to endpoint {} failed ({}); trying again at {}", e.name(), reply.summary(), next);
        }
    }

    private void tell(Endpoint e, List<StoredEvent> batch, Outcome outcome, Reply reply) {
        if (outcome == Outcome.RETRY) {
            listener.retried(e.name());
            return;
        }
        if (outcome == Outcome.LEASE_LOST) {
            log.warn("events: endpoint {}: the lease ran out while a batch was sent; its holder sends it again", e.name());
            return;
        }
        Map<String, Long> byType = new HashMap<>();
        batch.forEach(ev -> byType.merge(ev.type(), 1L, Long::sum));
        byType.forEach((type, n) -> {
            if (outcome == Outcome.DELIVERED) {
                listener.delivered(e.name(), type, n);
            } else {
                listener.failed(e.name(), type, n);
            }
        });
        if (outcome == Outcome.REFUSED) {
            log.warn("events: endpoint {} refused {} event(s) for good: {}", e.name(), batch.size(), reply.summary());
        }
    }

    private Map<Long, RecipientLookup.Recipient> lookup(List<StoredEvent> batch) throws SQLException {
        Set<Long> ids = new LinkedHashSet<>();
        for (StoredEvent ev : batch) {
            if (ev.recipientId() != null && (ev.email() == null || settings.includeFields())) {
                ids.add(ev.recipientId());
            }
        }
        if (ids.isEmpty()) {
            return Map.of();
        }
        try (Connection c = dataSource.getConnection()) {
            return recipients.find(c, new ArrayList<>(ids));
        }
    }

    private void expireIfDue() throws SQLException {
        Instant now = clock.instant();
        if (lastExpiry.plus(EXPIRY_EVERY).isAfter(now)) {
            return;
        }
        lastExpiry = now;
        Instant before = now.minus(settings.retention());
        long removed = 0;
        long pending = 0;
        long[] r;
        do {
            r = Transactions.inTransaction(dataSource, c -> outbox.expire(c, before, FAN_OUT_CHUNK));
            removed += r[0];
            pending += r[1];
        } while (r[0] == FAN_OUT_CHUNK);
        if (pending > 0) {
            log.warn("events: {} event(s) older than events.retention ({}) removed with {} delivery(ies) still pending",
                    removed, settings.retention(), pending);
            listener.expiredUndelivered(pending);
        } else if (removed > 0) {
            log.info("events: {} event(s) older than events.retention ({}) removed", removed, settings.retention());
        }
    }
}
