package dev.mailrun.campaign.audience;

import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.store.ApiAuditTable;
import dev.mailrun.campaign.store.BounceEventTable;
import dev.mailrun.campaign.store.ErasedAddressTable;
import dev.mailrun.campaign.store.ErasureAuditTable;
import dev.mailrun.campaign.store.IdempotencyTable;
import dev.mailrun.campaign.store.SoftBounceTable;
import dev.mailrun.campaign.store.SuppressionRemovalTable;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.TrackingEventTable;
import dev.mailrun.campaign.store.audience.SubscriberTable;
import dev.mailrun.campaign.store.recipient.RecipientErasure;
import dev.mailrun.db.Transactions;
import dev.mailrun.events.EventOutbox;
import dev.mailrun.events.EventType;
import dev.mailrun.events.OutboxEvent;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Erases a person (docs/ERASURE.md), the one place that knows every table holding an address, in one
 * transaction:
 *
 * <ol>
 *   <li>the subscriber with its name, attributes, subscriptions and history is deleted;</li>
 *   <li>the opens and clicks of every send to the address are deleted ({@link TrackingEventTable#erase});</li>
 *   <li>every recipient row of the address keeps its id, campaign, status and times (the campaigns'
 *       counts stay) and becomes {@code erased-<id>@erased.invalid}, without name, fields, error or file;
 *       its bounces keep their kind and code, not the address or the diagnostic;</li>
 *   <li>its suppression, soft-bounce count and suppression removals are deleted, and the events in the
 *       outbox, the API's audit trail and stored idempotent answers lose the address;</li>
 *   <li>a salted hash of the address goes into {@code erased_address}, which the suppression check reads:
 *       no import, sign-up or send mails the address again;</li>
 *   <li>an {@code erasure_audit} row (when, which way, who; never the address) and a
 *       {@code subscriber.erased} event are written.</li>
 * </ol>
 */
public final class Erasure {

    /** The way an erasure came: the operator's command line, the HTTP API, the console, the person's confirmed request. */
    public enum Via {
        CLI, API, CONSOLE, PREFERENCES;

        public String dbValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What an erasure removed: the subscriber's id (if the address was one), recipient rows anonymised, opens and clicks deleted. */
    public record Erased(Optional<Long> subscriberId, int recipients, int tracking) {}

    private final DataSource dataSource;
    private final Clock clock;
    private final SubscriberTable subscribers = new SubscriberTable();
    private final RecipientErasure recipients = new RecipientErasure();
    private final TrackingEventTable tracking = new TrackingEventTable();
    private final BounceEventTable bounces = new BounceEventTable();
    private final SoftBounceTable softBounces = new SoftBounceTable();
    private final SuppressionTable suppressions = new SuppressionTable();
    private final SuppressionRemovalTable removals = new SuppressionRemovalTable();
    private final ApiAuditTable apiAudit = new ApiAuditTable();
    private final IdempotencyTable idempotency = new IdempotencyTable();
    private final ErasedAddressTable erased;
    private final ErasureAuditTable audit = new ErasureAuditTable();
    private final EventOutbox events = new EventOutbox();

    public Erasure(DataSource dataSource, Clock clock, SecureRandom random) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.erased = new ErasedAddressTable(random);
    }

    /**
     * Erases the address, whatever its letter case; an address mailrun holds nothing of is still
     * recorded erased, so that it is never added later.
     *
     * @param actor who asked: an operator's name, an API token's, or {@code self}
     * @throws CampaignException when {@code email} is not an email address
     */
    public Erased erase(String email, Via via, String actor) throws SQLException {
        if (!(EmailAddress.check(email) instanceof EmailAddress.Valid valid)) {
            throw new CampaignException("'" + email + "' is not an email address");
        }
        String key = valid.address().suppressionKey();
        return Transactions.inTransaction(dataSource, c -> erase(c, key, via, actor, clock.instant()));
    }

    /** Erases the subscriber with this id as {@link #erase(String, Via, String)} does its address; empty when there is none. */
    public Optional<Erased> eraseSubscriber(long id, Via via, String actor) throws SQLException {
        return Transactions.inTransaction(dataSource, c -> {
            Optional<SubscriberTable.Stored> s = subscribers.lockById(c, id);
            if (s.isEmpty()) {
                return Optional.<Erased>empty();
            }
            return Optional.of(erase(c, s.get().email().toLowerCase(Locale.ROOT), via, actor, clock.instant()));
        });
    }

    private Erased erase(Connection c, String key, Via via, String actor, Instant now) throws SQLException {
        Optional<Long> subscriber = subscribers.lock(c, key).map(SubscriberTable.Stored::id);
        List<Long> rows = recipients.lock(c, key);
        int opens = tracking.erase(c, key);
        bounces.erase(c, rows);
        recipients.anonymise(c, rows);
        subscribers.delete(c, key);
        suppressions.delete(c, key);
        softBounces.erase(c, key);
        removals.erase(c, key);
        events.erase(c, key);
        apiAudit.erase(c, key);
        idempotency.erase(c, key);
        erased.add(c, key, now);
        audit.insert(c, new ErasureAuditTable.Entry(now, via.dbValue(), actor, subscriber, rows.size(), opens));
        events.write(c, List.of(OutboxEvent.of(EventType.SUBSCRIBER_ERASED, null, null, null,
                OutboxEvent.fields("subscriber_id", subscriber.orElse(null), "via", via.dbValue()))), now);
        return new Erased(subscriber, rows.size(), opens);
    }

    /** The newest erasures, newest first: what the console's page lists. */
    public List<ErasureAuditTable.Entry> recent(int limit) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return audit.newest(c, limit);
        }
    }
}
