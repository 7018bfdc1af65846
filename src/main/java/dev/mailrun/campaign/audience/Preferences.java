package dev.mailrun.campaign.audience;

import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriberEventKind;
import dev.mailrun.campaign.model.SubscriberStatus;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.model.SubscriptionStatus;
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
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * What a person changes from the preference centre (docs/PREFERENCES.md), found by the address the
 * signed link was made for: the lists shown (every public list, and a private one they are on), their
 * choice among them, leaving every list. A person the link names who is no subscriber (erased or
 * deleted since, or a recipient imported from a file) is shown no list and can change nothing.
 */
public final class Preferences {

    /** Where the preference centre's changes are recorded in the history. */
    static final String BY = "by the preference centre";

    /** A list shown: {@code subscribed} when the subscription is unconfirmed or confirmed; a private list can only be left. */
    public record Choice(long listId, String name, Optional<String> description, boolean subscribed, boolean joinable) {}

    /** The page's contents: the address as stored, and the lists shown, by name. */
    public record View(String email, boolean blocklisted, List<Choice> lists) {}

    /** What a change did: the names of the lists joined and left. */
    public record Changed(List<String> joined, List<String> left) {}

    /** A choice naming a list that is not shown to this person (forged or stale form): nothing changed. */
    public static final class UnknownList extends Exception {
        public UnknownList(long id) {
            super("list " + id + " is not one of the lists shown");
        }
    }

    private final DataSource dataSource;
    private final Clock clock;
    private final SubscriberTable subscribers = new SubscriberTable();
    private final SubscriberListTable lists = new SubscriberListTable();
    private final SubscriptionTable subscriptions = new SubscriptionTable();
    private final SubscriberEventTable history = new SubscriberEventTable();

    public Preferences(DataSource dataSource, Clock clock) {
        this.dataSource = dataSource;
        this.clock = clock;
    }

    /** The page for this address; empty when it is no subscriber (or no address). */
    public Optional<View> view(String email) throws SQLException {
        Optional<String> key = key(email);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        try (Connection c = dataSource.getConnection()) {
            Optional<SubscriberTable.Stored> s = subscribers.find(c, key.get());
            return s.isEmpty() ? Optional.empty() : Optional.of(view(c, s.get()));
        }
    }

    private View view(Connection c, SubscriberTable.Stored s) throws SQLException {
        Map<Long, SubscriptionStatus> held = subscriptions.ofSubscriber(c, s.id()).stream()
                .collect(Collectors.toMap(SubscriptionTable.Stored::listId, SubscriptionTable.Stored::status));
        boolean blocklisted = s.status() == SubscriberStatus.BLOCKLISTED;
        List<Choice> shown = new ArrayList<>();
        for (SubscriberListTable.Stored l : lists.all(c)) {
            boolean on = held.containsKey(l.id()) && held.get(l.id()) != SubscriptionStatus.UNSUBSCRIBED;
            boolean open = l.visibility() == ListVisibility.PUBLIC;
            if (open || on) {
                shown.add(new Choice(l.id(), l.name(), l.description(), on, open && !blocklisted));
            }
        }
        return new View(s.email(), blocklisted, shown);
    }

    /**
     * Makes the person's subscriptions those of {@code chosen} among the lists shown: joins (confirmed:
     * the person acts from a link mailed to the address) and leaves, each with its event; empty when the
     * address is no subscriber.
     *
     * @throws UnknownList when {@code chosen} names a list not shown, or one that cannot be joined; nothing changed then
     */
    public Optional<Changed> choose(String email, Set<Long> chosen) throws SQLException, UnknownList {
        Optional<String> key = key(email);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Transactions.inTransaction(dataSource, c -> {
                Optional<SubscriberTable.Stored> s = subscribers.lock(c, key.get());
                if (s.isEmpty()) {
                    return Optional.<Changed>empty();
                }
                return Optional.of(choose(c, s.get(), chosen, clock.instant()));
            });
        } catch (UnknownListInside e) {
            throw e.cause;
        }
    }

    private Changed choose(Connection c, SubscriberTable.Stored s, Set<Long> chosen, Instant now) throws SQLException {
        View view = view(c, s);
        Map<Long, Choice> byId = view.lists().stream().collect(Collectors.toMap(Choice::listId, Function.identity()));
        for (long id : chosen) {
            Choice ch = byId.get(id);
            if (ch == null || (!ch.subscribed() && !ch.joinable())) {
                throw new UnknownListInside(new UnknownList(id));
            }
        }
        List<NewEvent> news = new ArrayList<>();
        List<String> joined = new ArrayList<>();
        List<String> left = new ArrayList<>();
        for (Choice ch : view.lists()) {
            boolean want = chosen.contains(ch.listId());
            if (want && !ch.subscribed()) {
                if (subscriptions.lockOnList(c, ch.listId(), List.of(s.id())).isEmpty()) {
                    subscriptions.subscribe(c, ch.listId(), List.of(s.id()), SubscriptionStatus.CONFIRMED, SubscriptionSource.FORM, now);
                } else {
                    subscriptions.setStatus(c, ch.listId(), List.of(s.id()), SubscriptionStatus.CONFIRMED, now);
                }
                news.add(new NewEvent(s.id(), SubscriberEventKind.SUBSCRIBED, ch.listId(), "list '" + ch.name() + "', confirmed, " + BY));
                joined.add(ch.name());
            } else if (!want && ch.subscribed()) {
                subscriptions.unsubscribe(c, s.id(), List.of(ch.listId()), now);
                news.add(new NewEvent(s.id(), SubscriberEventKind.UNSUBSCRIBED, ch.listId(), BY));
                left.add(ch.name());
            }
        }
        history.write(c, news, now);
        return new Changed(joined, left);
    }

    /** Leaves every list, each with its event; the number left, empty when the address is no subscriber. */
    public Optional<Integer> leaveAll(String email) throws SQLException {
        Optional<String> key = key(email);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        return Transactions.inTransaction(dataSource, c -> {
            Optional<SubscriberTable.Stored> s = subscribers.lock(c, key.get());
            if (s.isEmpty()) {
                return Optional.<Integer>empty();
            }
            Instant now = clock.instant();
            long id = s.get().id();
            List<SubscriptionTable.Held> held = subscriptions.lockHeld(c, List.of(id));
            subscriptions.unsubscribeEverywhere(c, List.of(id), now);
            history.write(c, held.stream().map(h -> new NewEvent(id, SubscriberEventKind.UNSUBSCRIBED, h.listId(), BY)).toList(), now);
            return Optional.of(held.size());
        });
    }

    static Optional<String> key(String email) {
        return EmailAddress.check(email) instanceof EmailAddress.Valid valid ? Optional.of(valid.address().suppressionKey())
                : Optional.empty();
    }

    /** Carries the checked exception out of the transaction's lambda. */
    private static final class UnknownListInside extends RuntimeException {
        private final UnknownList cause;

        UnknownListInside(UnknownList cause) {
            super(cause.getMessage(), null, false, false);
            this.cause = cause;
        }
    }
}
