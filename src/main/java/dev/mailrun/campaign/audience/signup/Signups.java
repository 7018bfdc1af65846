package dev.mailrun.campaign.audience.signup;

import dev.mailrun.campaign.audience.SubscriberNames;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.SubscriberEventKind;
import dev.mailrun.campaign.model.SubscriberStatus;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.model.SubscriptionStatus;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.audience.ConsentTable;
import dev.mailrun.campaign.store.audience.PublicListTable;
import dev.mailrun.campaign.store.audience.PublicListTable.PublicList;
import dev.mailrun.campaign.store.audience.SubscriberEventTable;
import dev.mailrun.campaign.store.audience.SubscriberEventTable.NewEvent;
import dev.mailrun.campaign.store.audience.SubscriberTable;
import dev.mailrun.campaign.store.audience.SubscriptionTable;
import dev.mailrun.campaign.unsubscribe.SignupTokens;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sign-ups from the public forms, and their confirmations (docs/SIGNUP.md).
 *
 * <ol>
 *   <li>A sign-up names an address, perhaps a name, and public lists. For each list: no subscription
 *       yet on a single opt-in list → confirmed at once; on a double opt-in list, or one the address
 *       is unconfirmed on or has left → a pending consent, confirmed by the one link of one message;
 *       already confirmed → nothing. A suppressed or blocklisted address gets nothing. Whatever of
 *       these it was, the caller shows the same page: no answer says whether an address is known.</li>
 *   <li>A confirmation link is checked (signature, expiry), then its nonce's hash must still be the
 *       pending one: a link works once, and a newer sign-up's link replaces an older one.</li>
 * </ol>
 * Messages are sent after the commit; a message that cannot be sent is logged, and the sign-up stands.
 */
public final class Signups {

    private static final Logger log = LoggerFactory.getLogger(Signups.class);

    /** What a confirmation link came to. */
    public sealed interface Confirmed {
        record Done(String address, List<String> lists, String language, Instant at) implements Confirmed {}

        /** A genuine link, not yet used: what it would confirm. */
        record Pending(String address, List<String> lists, String language) implements Confirmed {}

        record Expired() implements Confirmed {}

        record Used() implements Confirmed {}

        record Invalid() implements Confirmed {}
    }

    private final DataSource dataSource;
    private final Clock clock;
    private final SignupSettings settings;
    private final SignupTokens tokens;
    private final SignupMailer mailer;
    private final PublicListTable lists = new PublicListTable();
    private final SubscriberTable subscribers = new SubscriberTable();
    private final SubscriptionTable subscriptions = new SubscriptionTable();
    private final ConsentTable consents = new ConsentTable();
    private final SubscriberEventTable events = new SubscriberEventTable();
    private final SuppressionTable suppressions = new SuppressionTable();

    public Signups(DataSource dataSource, Clock clock, SignupSettings settings, SignupTokens tokens, SignupMailer mailer) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.settings = settings;
        this.tokens = tokens;
        this.mailer = mailer;
    }

    public SignupSettings settings() {
        return settings;
    }

    /** Every public list, by name: what the form of several lists offers. */
    public List<PublicList> publicLists() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return lists.all(c);
        }
    }

    /** The language of a form of these lists: the first's own, else the configured one. */
    public String language(List<PublicList> shown) {
        return shown.stream().map(PublicList::language).flatMap(Optional::stream).findFirst().orElse(settings.language());
    }

    /**
     * Signs the address up (see the class comment).
     *
     * @return whether any message was sent (for the log; never shown)
     * @throws InvalidFields naming {@code email}, {@code name} (too long, or not fit for a header: a line
     *                       break) or {@code lists} (none, or one that is not a public list); nothing changed then
     */
    public boolean signUp(SignupForm form) throws SQLException {
        List<InvalidFields.Problem> problems = new ArrayList<>();
        EmailAddress.Check check = EmailAddress.check(form.email() == null ? "" : form.email());
        if (check instanceof EmailAddress.Invalid invalid) {
            problems.add(new InvalidFields.Problem("email", invalid.reason()));
        }
        Optional<String> name = form.name().flatMap(n -> SubscriberNames.checked(n, problems));
        List<Long> listIds = form.listIds().stream().distinct().toList();
        if (listIds.isEmpty()) {
            problems.add(new InvalidFields.Problem("lists", "choose at least one list"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidFields(problems);
        }
        EmailAddress address = ((EmailAddress.Valid) check).address();
        Instant now = clock.instant();
        Plan plan = Transactions.inTransaction(dataSource, c -> plan(c, address, name, listIds, form.clientIp(), now));
        boolean sent = false;
        if (!plan.pending().isEmpty()) {
            SignupTokens.Issued issued = plan.issued();
            sent = send(() -> mailer.confirmation(address.value(), plan.name(), plan.pending(), plan.language(),
                    settings.base() + SignupTokens.CONFIRM_PREFIX + issued.token(), issued.expires()));
        }
        if (!plan.confirmed().isEmpty() && settings.welcomeTemplate().isPresent()) {
            sent |= send(() -> mailer.welcome(address.value(), plan.name(), plan.confirmed(), plan.language(),
                    settings.welcomeTemplate().get()));
        }
        return sent;
    }

    private record Plan(Optional<String> name, List<String> pending, List<String> confirmed, String language,
                        SignupTokens.Issued issued) {}

    private Plan plan(Connection c, EmailAddress address, Optional<String> name, List<Long> listIds,
                      Optional<String> clientIp, Instant now) throws SQLException {
        List<PublicList> chosen = new ArrayList<>();
        for (long id : listIds) {
            chosen.add(lists.lockShared(c, id).orElseThrow(() -> InvalidFields.about("lists", Long.toString(id),
                    "no public list has this id")));
        }
        String language = language(chosen);
        if (suppressions.isSuppressed(c, address.suppressionKey())) {
            return new Plan(name, List.of(), List.of(), language, null);
        }
        Optional<SubscriberTable.Stored> existing = subscribers.lock(c, address.suppressionKey());
        List<NewEvent> news = new ArrayList<>();
        long id;
        Optional<String> shownName = name;
        if (existing.isEmpty()) {
            id = subscribers.insert(c, address.value(), name.orElse(null), null, SubscriberStatus.ENABLED, now);
            news.add(new NewEvent(id, SubscriberEventKind.CREATED, null, "by form"));
        } else if (existing.get().status() == SubscriberStatus.BLOCKLISTED) {
            return new Plan(name, List.of(), List.of(), language, null);
        } else {
            id = existing.get().id();
            // A form proves nothing about who sent it: it never changes a known subscriber's name.
            shownName = existing.get().name();
        }
        SignupTokens.Issued issued = tokens.confirmation(id);
        List<String> pending = new ArrayList<>();
        List<String> confirmed = new ArrayList<>();
        Optional<String> ip = settings.storeIp() ? clientIp : Optional.empty();
        Optional<String> wording = Optional.of(settings.wordingVersion());
        for (PublicList list : chosen) {
            Optional<SubscriptionStatus> status = Optional.ofNullable(subscriptions.lockOnList(c, list.id(), List.of(id)).get(id));
            if (status.isPresent() && status.get() == SubscriptionStatus.CONFIRMED) {
                continue;
            }
            if (status.isEmpty() && list.optIn() == ListOptIn.SINGLE) {
                subscriptions.subscribe(c, list.id(), List.of(id), SubscriptionStatus.CONFIRMED, SubscriptionSource.FORM, now);
                consents.put(c, new ConsentTable.NewConsent(id, list.id(), SubscriptionSource.FORM, wording, Optional.of(now), ip,
                        Optional.empty()), now);
                news.add(new NewEvent(id, SubscriberEventKind.SUBSCRIBED, list.id(), "list '" + list.name() + "', confirmed, by form"));
                confirmed.add(list.name());
                continue;
            }
            if (status.isEmpty()) {
                subscriptions.subscribe(c, list.id(), List.of(id), SubscriptionStatus.UNCONFIRMED, SubscriptionSource.FORM, now);
                news.add(new NewEvent(id, SubscriberEventKind.SUBSCRIBED, list.id(), "list '" + list.name() + "', unconfirmed, by form"));
            }
            consents.put(c, new ConsentTable.NewConsent(id, list.id(), SubscriptionSource.FORM, wording, Optional.empty(), ip,
                    Optional.of(issued.nonceHash())), now);
            pending.add(list.name());
        }
        events.write(c, news, now);
        return new Plan(shownName, pending, confirmed, language, issued);
    }

    /** What the link would confirm, without changing anything (the page a GET shows). */
    public Confirmed preview(String token) throws SQLException {
        return Transactions.inTransaction(dataSource, c -> confirm(c, token, false));
    }

    /** Confirms what the link names, once. */
    public Confirmed confirm(String token) throws SQLException {
        Confirmed result = Transactions.inTransaction(dataSource, c -> confirm(c, token, true));
        if (result instanceof Confirmed.Done done && settings.welcomeTemplate().isPresent()) {
            send(() -> mailer.welcome(done.address(), Optional.empty(), done.lists(), done.language(), settings.welcomeTemplate().get()));
        }
        return result;
    }

    private Confirmed confirm(Connection c, String token, boolean change) throws SQLException {
        Optional<SignupTokens.Confirmation> opened = tokens.confirmation(token);
        if (opened.isEmpty()) {
            return new Confirmed.Invalid();
        }
        SignupTokens.Confirmation link = opened.get();
        if (link.expired()) {
            return new Confirmed.Expired();
        }
        Optional<SubscriberTable.Stored> subscriber = subscribers.lockById(c, link.subscriberId());
        if (subscriber.isEmpty() || subscriber.get().status() != SubscriberStatus.ENABLED) {
            return new Confirmed.Used();
        }
        List<Long> listIds = consents.lockPending(c, link.subscriberId(), link.nonceHash());
        if (listIds.isEmpty()) {
            return new Confirmed.Used();
        }
        List<PublicList> named = new ArrayList<>();
        for (long listId : listIds) {
            lists.any(c, listId).ifPresent(named::add);
        }
        List<String> names = named.stream().map(PublicList::name).toList();
        String address = subscriber.get().email();
        if (!change) {
            return new Confirmed.Pending(address, names, language(named));
        }
        Instant now = clock.instant();
        List<NewEvent> news = new ArrayList<>();
        for (PublicList list : named) {
            subscriptions.setStatus(c, list.id(), List.of(link.subscriberId()), SubscriptionStatus.CONFIRMED, now);
            news.add(new NewEvent(link.subscriberId(), SubscriberEventKind.CONFIRMED, list.id(), "list '" + list.name() + "', by link"));
        }
        consents.confirm(c, link.subscriberId(), link.nonceHash(), now);
        events.write(c, news, now);
        return new Confirmed.Done(address, names, language(named), now);
    }

    private static boolean send(Runnable message) {
        try {
            message.run();
            return true;
        } catch (RuntimeException e) {
            log.warn("a sign-up message could not be sent: {}", e.getMessage());
            return false;
        }
    }
}
