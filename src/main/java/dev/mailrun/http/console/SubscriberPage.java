package dev.mailrun.http.console;

import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberForm;
import dev.mailrun.campaign.audience.Subscribers;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.SubscriberStatus;
import dev.mailrun.campaign.model.SubscriptionSource;
import dev.mailrun.campaign.store.audience.SubscriberEventTable;
import dev.mailrun.campaign.store.audience.SubscriptionTable;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code /console/subscriber?email=…}: one subscriber as {@code subscribers show} shows it — name,
 * attributes, status, subscriptions (status, source, since) and its newest
 * {@value Subscribers#HISTORY_SHOWN} events, newest first — and its actions: blocklist, add to a list,
 * and delete, which is asked twice ({@code GET /subscriber/delete} says what it does, only its form's
 * {@code confirm} field deletes). Changes are made as the operator ({@code operator} source).
 */
final class SubscriberPage {

    private final Views views;
    private final Subscribers subscribers;
    private final Lists lists;

    SubscriberPage(ConsoleServices services, Views views) {
        this.views = views;
        this.subscribers = services.audience().subscribers();
        this.lists = services.audience().lists();
    }

    Answer show(ConsoleRequest r) throws SQLException {
        Optional<Subscribers.Detail> found = find(r.param("email"));
        if (found.isEmpty()) {
            return Answer.error(404, "There is no subscriber " + r.param("email").orElse("(no address given)")
                    + ": search for one on the Subscribers page.");
        }
        Subscribers.Detail d = found.get();
        Map<String, Object> model = new HashMap<>();
        model.put("s", Map.of("id", d.subscriber().id(), "email", d.subscriber().email(), "name", d.subscriber().name().orElse(""),
                "status", d.subscriber().status().dbValue(), "blocklisted", d.subscriber().status() == SubscriberStatus.BLOCKLISTED,
                "created", d.subscriber().createdAt().toString(), "updated", d.subscriber().updatedAt().toString()));
        model.put("attributes", d.subscriber().attributes().values().entrySet().stream()
                .map(e -> Map.of("name", e.getKey(), "value", String.valueOf(e.getValue()))).toList());
        model.put("subscriptions", d.subscriptions().stream().map(SubscriberPage::subscription).toList());
        model.put("history", d.history().stream().map(SubscriberPage::event).toList());
        model.put("historyShown", Subscribers.HISTORY_SHOWN);
        Set<Long> on = d.subscriptions().stream().map(SubscriptionTable.Stored::listId).collect(Collectors.toSet());
        model.put("otherLists", lists.list().stream().filter(l -> !on.contains(l.list().id())).map(l -> l.list().name()).toList());
        return Answer.ok(views.render("subscriber", r.session(), model));
    }

    Answer blocklist(ConsoleRequest r) throws Exception {
        String email = existing(r).subscriber().email();
        Subscribers.Blocklisted done = subscribers.blocklist(email, SubscriptionSource.OPERATOR);
        r.session().flash(false, done.changed() ? email + " is blocklisted; " + done.unsubscribed()
                + " subscription(s) unsubscribed." : email + " was blocklisted already.");
        return back(email);
    }

    Answer subscribe(ConsoleRequest r) throws Exception {
        String email = existing(r).subscriber().email();
        Optional<String> list = r.field("list");
        if (list.isEmpty()) {
            throw new Refusal(AudienceForms.subscriber(email), "Choose a list to add " + email + " to.");
        }
        Subscribers.Upserted done;
        try {
            done = subscribers.upsert(new SubscriberForm(email, Optional.empty(), Optional.empty(), List.of(list.get())),
                    SubscriptionSource.OPERATOR);
        } catch (InvalidFields e) {
            throw new Refusal(AudienceForms.subscriber(email), email + " was not added to " + list.get() + ": "
                    + e.problems().get(0).reason() + ".");
        }
        r.session().flash(false, done.subscribedTo().isEmpty() ? email + " was on list " + list.get() + " already."
                : email + " is added to list " + list.get() + ".");
        return back(email);
    }

    /** The page that says what deleting does, with the one button that does it. */
    Answer ask(ConsoleRequest r) throws SQLException {
        Optional<Subscribers.Detail> found = find(r.param("email"));
        if (found.isEmpty()) {
            return Answer.error(404, "There is no subscriber " + r.param("email").orElse("(no address given)") + ".");
        }
        Subscribers.Detail d = found.get();
        return Answer.ok(views.render("subscriber-delete", r.session(), Map.of("email", d.subscriber().email(),
                "subscriptions", d.subscriptions().size())));
    }

    Answer delete(ConsoleRequest r) throws Exception {
        String email = existing(r).subscriber().email();
        if (!"yes".equals(r.field("confirm").orElse(""))) {
            throw new Refusal("/subscriber/delete?email=" + AudienceForms.encode(email),
                    "Tick the box to confirm: deleting " + email + " cannot be undone.");
        }
        if (!subscribers.delete(email)) {
            throw new Refusal("/subscribers", "There is no subscriber " + email + " (deleted meanwhile).");
        }
        r.session().flash(false, email + " is deleted, with its subscriptions and history.");
        return Answer.redirect(ConsoleHandler.PREFIX + "/subscribers");
    }

    private Optional<Subscribers.Detail> find(Optional<String> email) throws SQLException {
        if (email.isEmpty() || email.get().length() > EmailAddress.MAX_ADDRESS_OCTETS) {
            return Optional.empty();
        }
        try {
            return subscribers.get(email.get());
        } catch (InvalidFields e) {
            // Not an address: no subscriber has it.
            return Optional.empty();
        }
    }

    /** The subscriber the form's {@code email} names. */
    private Subscribers.Detail existing(ConsoleRequest r) throws Exception {
        Optional<String> email = r.field("email");
        return find(email).orElseThrow(() -> new Refusal("/subscribers", "There is no subscriber "
                + email.orElse("(no address given)") + ": search for one."));
    }

    private static Answer back(String email) {
        return Answer.redirect(ConsoleHandler.PREFIX + AudienceForms.subscriber(email));
    }

    private static Map<String, Object> subscription(SubscriptionTable.Stored s) {
        return Map.of("list", s.listName(), "status", s.status().dbValue(), "source", s.source().dbValue(),
                "since", s.createdAt().toString(), "changed", s.updatedAt().toString());
    }

    private static Map<String, Object> event(SubscriberEventTable.Stored e) {
        return Map.of("at", e.at().toString(), "kind", e.kind(), "list", e.listName().orElse(""), "detail", e.detail().orElse(""));
    }
}
