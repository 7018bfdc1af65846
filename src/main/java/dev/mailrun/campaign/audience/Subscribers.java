package dev.mailrun.campaign.audience;

import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.SubscriberEventKind;
import dev.mailrun.campaign.model.SubscriberStatus;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.model.SubscriptionStatus;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.audience.SubscriberEventTable;
import dev.mailrun.campaign.store.audience.SubscriberEventTable.NewEvent;
import dev.mailrun.campaign.store.audience.SubscriberListTable;
import dev.mailrun.campaign.store.audience.SubscriberTable;
import dev.mailrun.campaign.store.audience.SubscriptionTable;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The operator's subscribers, one at a time: add or change one, read one with its subscriptions and
 * history, search, delete, blocklist. An address is normalised as a recipient's is
 * ({@link EmailAddress}) and found whatever its letter case. Adding one follows the import's rules:
 * an address the import would reject (suppressed, refused by the address filter) is refused. Every
 * bad value is reported at once, each naming its field.
 */
public final class Subscribers {

    /** The newest events {@link #get} returns. */
    public static final int HISTORY_SHOWN = 100;
    public static final int MAX_PAGE = 1000;

    /** A subscriber with its subscriptions (by list name) and its newest {@value #HISTORY_SHOWN} events, newest first. */
    public record Detail(Subscriber subscriber, List<SubscriptionTable.Stored> subscriptions, List<SubscriberEventTable.Stored> history) {}

    /** What an upsert did: {@code created} or changed, and the lists it newly subscribed to. */
    public record Upserted(Subscriber subscriber, boolean created, List<String> subscribedTo) {}

    /** A page of a search; {@code next} is the {@code after} of the next page, empty on the last. */
    public record Page(List<Subscriber> rows, Optional<Long> next) {}

    /**
     * What blocklisting did: {@code added} a subscriber that was not one, {@code changed} one that
     * was enabled, and how many of its subscriptions it unsubscribed.
     */
    public record Blocklisted(Subscriber subscriber, boolean added, boolean changed, int unsubscribed) {}

    /** A subscriber after a change, and whether anything changed. */
    public record Changed(Subscriber subscriber, boolean changed) {}

    private final DataSource dataSource;
    private final Clock clock;
    private final AddressFilter filter;
    private final SubscriberTable subscribers = new SubscriberTable();
    private final SubscriberListTable lists = new SubscriberListTable();
    private final SubscriptionTable subscriptions = new SubscriptionTable();
    private final SubscriberEventTable events = new SubscriberEventTable();
    private final SuppressionTable suppressions = new SuppressionTable();
    private final StatusWrites statuses = new StatusWrites();

    /** @param filter the import's extra address check (disposable domains, role addresses), applied to every address added */
    public Subscribers(DataSource dataSource, Clock clock, AddressFilter filter) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.filter = filter;
    }

    /**
     * Adds the subscriber, or changes the one with this address: its name and attributes when the form
     * gives them, and subscribes it to the form's lists it is not on (confirmed on a single opt-in list,
     * unconfirmed on a double one). Each change leaves an event in its history.
     *
     * @throws InvalidFields naming {@code email}, {@code name}, {@code attributes}, {@code lists} (an
     *                       unknown list; any list while the subscriber is blocklisted); nothing changed then
     */
    public Upserted upsert(SubscriberForm form, SubscriptionSource source) throws SQLException {
        List<InvalidFields.Problem> problems = new ArrayList<>();
        Optional<EmailAddress> address = address(form.email(), problems);
        Optional<Optional<String>> name = form.name().map(n -> SubscriberNames.checked(n, problems));
        Optional<Attributes> attributes = Optional.empty();
        try {
            attributes = form.attributes().map(Attributes::of);
        } catch (InvalidFields e) {
            problems.addAll(e.problems());
        }
        List<String> listNames = form.lists().stream().map(String::strip).distinct().toList();
        try (Connection c = dataSource.getConnection()) {
            for (String list : listNames) {
                if (lists.find(c, list).isEmpty()) {
                    problems.add(InvalidFields.Problem.about("lists", "'" + list + "'", "no such list"));
                }
            }
            if (address.isPresent()) {
                refused(c, address.get()).ifPresent(p -> problems.add(new InvalidFields.Problem("email", p)));
            }
        }
        TextFields.throwIfAny(problems);
        EmailAddress a = address.orElseThrow();
        Optional<Attributes> attrs = attributes;
        return Transactions.inTransaction(dataSource, c -> upsert(c, a, name, attrs, listNames, source, clock.instant()));
    }

    private Upserted upsert(Connection c, EmailAddress address, Optional<Optional<String>> name, Optional<Attributes> attributes,
                            List<String> listNames, SubscriptionSource source, Instant now) throws SQLException {
        List<NewEvent> news = new ArrayList<>();
        Optional<SubscriberTable.Stored> existing = subscribers.lock(c, address.suppressionKey());
        long id;
        if (existing.isEmpty()) {
            id = subscribers.insert(c, address.value(), name.flatMap(n -> n).orElse(null),
                    attributes.flatMap(Attributes::json).orElse(null), SubscriberStatus.ENABLED, now);
            news.add(new NewEvent(id, SubscriberEventKind.CREATED, null, "by " + source.dbValue()));
        } else {
            Subscriber old = Subscriber.of(existing.get());
            id = old.id();
            Optional<String> newName = name.orElse(old.name());
            Attributes newAttributes = attributes.orElse(old.attributes());
            List<String> changed = new ArrayList<>();
            if (!newName.equals(old.name())) {
                changed.add("name");
            }
            if (!newAttributes.equals(old.attributes())) {
                changed.add("attributes");
            }
            if (!changed.isEmpty()) {
                subscribers.update(c, id, newName.orElse(null), newAttributes.json().orElse(null), now);
                news.add(new NewEvent(id, SubscriberEventKind.UPDATED, null, String.join(", ", changed) + " by " + source.dbValue()));
            }
            if (!listNames.isEmpty() && old.status() == SubscriberStatus.BLOCKLISTED) {
                throw InvalidFields.of("lists", address.value() + " is blocklisted, and a blocklisted subscriber is on no list");
            }
        }
        List<String> subscribedTo = new ArrayList<>();
        for (String listName : listNames) {
            // Held until the commit: the list cannot be deleted under the new subscription.
            SubscriberListTable.Stored list = lists.lockShared(c, listName).orElseThrow(() -> Lists.unknown("lists", listName));
            if (subscriptions.lockOnList(c, list.id(), List.of(id)).isEmpty()) {
                SubscriptionStatus status = list.optIn().newSubscription();
                subscriptions.subscribe(c, list.id(), List.of(id), status, source, now);
                news.add(new NewEvent(id, SubscriberEventKind.SUBSCRIBED, list.id(),
                        "list '" + list.name() + "', " + status.dbValue() + ", by " + source.dbValue()));
                subscribedTo.add(list.name());
            }
        }
        events.write(c, news, now);
        return new Upserted(Subscriber.of(subscribers.find(c, address.suppressionKey()).orElseThrow()), existing.isEmpty(),
                subscribedTo);
    }

    /** The subscriber with this address, its subscriptions and newest history; empty when there is none. */
    public Optional<Detail> get(String email) throws SQLException {
        EmailAddress address = address(email);
        try (Connection c = dataSource.getConnection()) {
            Optional<SubscriberTable.Stored> row = subscribers.find(c, address.suppressionKey());
            if (row.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new Detail(Subscriber.of(row.get()), subscriptions.ofSubscriber(c, row.get().id()),
                    events.history(c, row.get().id(), HISTORY_SHOWN)));
        }
    }

    /** @throws InvalidFields naming {@code email}, {@code list}, {@code status}, {@code limit}, {@code after} */
    public Page search(SubscriberSearch search) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            SubscriberTable.Query query = SearchQuery.of(search, name -> lists.find(c, name).map(SubscriberListTable.Stored::id), MAX_PAGE);
            List<Subscriber> rows = new ArrayList<>();
            for (SubscriberTable.Stored row : subscribers.search(c, query)) {
                rows.add(Subscriber.of(row));
            }
            if (rows.size() <= search.limit()) {
                return new Page(rows, Optional.empty());
            }
            List<Subscriber> page = rows.subList(0, search.limit());
            return new Page(List.copyOf(page), Optional.of(page.get(page.size() - 1).id()));
        }
    }

    /** Deletes the subscriber with this address, its subscriptions and history; false when there is none. */
    public boolean delete(String email) throws SQLException {
        return delete(email, SubscriptionSource.OPERATOR);
    }

    /** {@link #delete(String)}, by {@code by} (what the {@code subscriber.deleted} event says). */
    public boolean delete(String email, SubscriptionSource by) throws SQLException {
        EmailAddress address = address(email);
        return Transactions.inTransaction(dataSource, c -> {
            Optional<SubscriberTable.Stored> existing = subscribers.lock(c, address.suppressionKey());
            return existing.isPresent() && deleted(c, existing.get(), by);
        });
    }

    /**
     * Blocklists the address: no list mails it, whatever its subscriptions. Every subscription it holds
     * is unsubscribed, each with its event; an address that is no subscriber yet is added blocklisted,
     * so that no import or form subscribes it later.
     */
    public Blocklisted blocklist(String email, SubscriptionSource by) throws SQLException {
        EmailAddress address = address(email);
        return Transactions.inTransaction(dataSource, c -> {
            Instant now = clock.instant();
            Optional<SubscriberTable.Stored> existing = subscribers.lock(c, address.suppressionKey());
            if (existing.isPresent() && existing.get().status() == SubscriberStatus.BLOCKLISTED) {
                return new Blocklisted(Subscriber.of(existing.get()), false, false, 0);
            }
            List<NewEvent> news = new ArrayList<>();
            long id;
            int unsubscribed = 0;
            if (existing.isEmpty()) {
                id = subscribers.insert(c, address.value(), null, null, SubscriberStatus.BLOCKLISTED, now);
                news.add(new NewEvent(id, SubscriberEventKind.CREATED, null, "by " + by.dbValue()));
                news.add(new NewEvent(id, SubscriberEventKind.BLOCKLISTED, null, "by " + by.dbValue()));
            } else {
                id = existing.get().id();
                unsubscribed = statuses.blocklist(c, id, by, news, now);
            }
            events.write(c, news, now);
            return new Blocklisted(Subscriber.of(subscribers.find(c, address.suppressionKey()).orElseThrow()), existing.isEmpty(),
                    true, unsubscribed);
        });
    }

    /**
     * Takes the address off the blocklist ({@link StatusWrites}): its subscriptions stay unsubscribed.
     * Empty when there is no such subscriber; {@code changed} false when it was not blocklisted.
     */
    public Optional<Changed> unblocklist(String email, SubscriptionSource by) throws SQLException {
        EmailAddress address = address(email);
        return Transactions.inTransaction(dataSource, c -> {
            Optional<SubscriberTable.Stored> existing = subscribers.lock(c, address.suppressionKey());
            if (existing.isEmpty()) {
                return Optional.<Changed>empty();
            }
            return Optional.of(changeStatus(c, existing.get(), SubscriberStatus.ENABLED, by, clock.instant()));
        });
    }

    /** The subscriber with this id, its subscriptions and newest history; empty when there is none. */
    public Optional<Detail> get(long id) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            Optional<SubscriberTable.Stored> row = subscribers.findById(c, id);
            if (row.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new Detail(Subscriber.of(row.get()), subscriptions.ofSubscriber(c, id), events.history(c, id,
                    HISTORY_SHOWN)));
        }
    }

    /**
     * Changes the subscriber with this id: its name and attributes as {@link #upsert} changes them, and
     * its status (blocklisting or taking off the blocklist, {@link StatusWrites}). Empty when there is
     * no such subscriber.
     *
     * @throws InvalidFields naming {@code name}, {@code attributes}, {@code status}; nothing changed then
     */
    public Optional<Changed> change(long id, SubscriberPatch patch, SubscriptionSource by) throws SQLException {
        List<InvalidFields.Problem> problems = new ArrayList<>();
        Optional<Optional<String>> name = patch.name().map(n -> SubscriberNames.checked(n, problems));
        Optional<Attributes> attributes = Optional.empty();
        try {
            attributes = patch.attributes().map(Attributes::of);
        } catch (InvalidFields e) {
            problems.addAll(e.problems());
        }
        Optional<SubscriberStatus> status = patch.status().map(s -> SubscriberStatus.parse(s).orElseGet(() -> {
            problems.add(new InvalidFields.Problem("status", "must be enabled or blocklisted, got '" + s.strip() + "'"));
            return null;
        }));
        TextFields.throwIfAny(problems);
        Optional<Attributes> attrs = attributes;
        return Transactions.inTransaction(dataSource, c -> {
            Optional<SubscriberTable.Stored> existing = subscribers.lockById(c, id);
            if (existing.isEmpty()) {
                return Optional.<Changed>empty();
            }
            Instant now = clock.instant();
            Subscriber old = Subscriber.of(existing.get());
            Optional<String> newName = name.orElse(old.name());
            Attributes newAttributes = attrs.orElse(old.attributes());
            List<String> changed = new ArrayList<>();
            if (!newName.equals(old.name())) {
                changed.add("name");
            }
            if (!newAttributes.equals(old.attributes())) {
                changed.add("attributes");
            }
            List<NewEvent> news = new ArrayList<>();
            if (!changed.isEmpty()) {
                subscribers.update(c, id, newName.orElse(null), newAttributes.json().orElse(null), now);
                news.add(new NewEvent(id, SubscriberEventKind.UPDATED, null, String.join(", ", changed) + " by " + by.dbValue()));
            }
            events.write(c, news, now);
            Changed statusChange = status.isPresent() ? changeStatus(c, existing.get(), status.get(), by, now)
                    : new Changed(old, false);
            Subscriber after = Subscriber.of(subscribers.findById(c, id).orElseThrow());
            return Optional.of(new Changed(after, !changed.isEmpty() || statusChange.changed()));
        });
    }

    /** Deletes the subscriber with this id, its subscriptions and history; false when there is none. */
    public boolean delete(long id, SubscriptionSource by) throws SQLException {
        return Transactions.inTransaction(dataSource, c -> {
            Optional<SubscriberTable.Stored> existing = subscribers.lockById(c, id);
            return existing.isPresent() && deleted(c, existing.get(), by);
        });
    }

    private boolean deleted(Connection c, SubscriberTable.Stored row, SubscriptionSource by) throws SQLException {
        Instant now = clock.instant();
        if (!subscribers.deleteById(c, row.id())) {
            return false;
        }
        events.deleted(c, row.id(), row.email(), "by " + by.dbValue(), now);
        return true;
    }

    /** Sets the status of a subscriber whose row this transaction locked; what changed. */
    private Changed changeStatus(Connection c, SubscriberTable.Stored row, SubscriberStatus status, SubscriptionSource by, Instant now)
            throws SQLException {
        if (row.status() == status) {
            return new Changed(Subscriber.of(row), false);
        }
        List<NewEvent> news = new ArrayList<>();
        if (status == SubscriberStatus.BLOCKLISTED) {
            statuses.blocklist(c, row.id(), by, news, now);
        } else {
            statuses.unblocklist(c, row.id(), by, news, now);
        }
        events.write(c, news, now);
        return new Changed(Subscriber.of(subscribers.findById(c, row.id()).orElseThrow()), true);
    }

    /** Why the import would reject this address (suppressed, or refused by the filter), or empty. */
    private Optional<String> refused(Connection c, EmailAddress address) throws SQLException {
        if (suppressions.isSuppressed(c, address.suppressionKey())) {
            return Optional.of(address.suppressionKey() + " is on the suppression list");
        }
        return filter.check(address).map(AddressFilter.Rejection::detail);
    }

    private static Optional<EmailAddress> address(String raw, List<InvalidFields.Problem> problems) {
        EmailAddress.Check check = EmailAddress.check(raw);
        if (check instanceof EmailAddress.Invalid invalid) {
            problems.add(new InvalidFields.Problem("email", invalid.reason()));
            return Optional.empty();
        }
        return Optional.of(((EmailAddress.Valid) check).address());
    }

    /** @throws InvalidFields naming {@code email} */
    private static EmailAddress address(String raw) {
        List<InvalidFields.Problem> problems = new ArrayList<>();
        Optional<EmailAddress> a = address(raw, problems);
        TextFields.throwIfAny(problems);
        return a.orElseThrow();
    }
}
