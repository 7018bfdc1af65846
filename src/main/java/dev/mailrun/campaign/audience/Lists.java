package dev.mailrun.campaign.audience;

import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriptionStatus;
import dev.mailrun.campaign.store.audience.CampaignListTable;
import dev.mailrun.campaign.store.audience.SubscriberListTable;
import dev.mailrun.campaign.store.audience.SubscriptionTable;
import dev.mailrun.db.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The operator's lists: create, list with their counts, change, delete. A list is named by its name
 * (unique whatever the letter case); an unknown name is a bad value of the field that gave it.
 */
public final class Lists {

    public static final int MAX_NAME = 100;
    public static final int MAX_DESCRIPTION = 1000;

    /** A new list; a blank description is none. */
    public record NewList(String name, Optional<String> description, ListVisibility visibility, ListOptIn optIn) {}

    /** What to change of a list; an empty part stays as it is, a blank description removes it. */
    public record Changes(Optional<String> name, Optional<String> description, Optional<ListVisibility> visibility,
                          Optional<ListOptIn> optIn) {}

    /** A list and how many subscriptions it has in each status (every status, 0 for none). */
    public record Summary(SubscriberListTable.Stored list, Map<SubscriptionStatus, Long> counts) {}

    private final DataSource dataSource;
    private final Clock clock;
    private final SubscriberListTable lists = new SubscriberListTable();
    private final SubscriptionTable subscriptions = new SubscriptionTable();
    private final CampaignListTable targets = new CampaignListTable();

    public Lists(DataSource dataSource, Clock clock) {
        this.dataSource = dataSource;
        this.clock = clock;
    }

    /** @throws InvalidFields naming {@code name} (blank, too long, taken) and {@code description} */
    public SubscriberListTable.Stored create(NewList list) throws SQLException {
        SubscriberListTable.Values values = checked(list.name(), list.description(), list.visibility(), list.optIn());
        try {
            return Transactions.inTransaction(dataSource, c -> {
                if (lists.find(c, values.name()).isPresent()) {
                    throw taken(values.name());
                }
                long id = lists.insert(c, values, clock.instant());
                return lists.find(c, values.name()).filter(l -> l.id() == id).orElseThrow();
            });
        } catch (SQLIntegrityConstraintViolationException e) {
            // Created by another caller between the check and the insert.
            throw taken(values.name());
        }
    }

    /** Every list by name, with its counts. */
    public List<Summary> list() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            Map<Long, Map<SubscriptionStatus, Long>> counts = subscriptions.counts(c);
            List<Summary> summaries = new ArrayList<>();
            for (SubscriberListTable.Stored l : lists.all(c)) {
                summaries.add(new Summary(l, counts.getOrDefault(l.id(), SubscriptionTable.zeros())));
            }
            return summaries;
        }
    }

    public Optional<SubscriberListTable.Stored> find(String name) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return lists.find(c, name == null ? "" : name.strip());
        }
    }

    /** @throws InvalidFields naming {@code name} when there is no such list or the new name is taken, and bad new values */
    public SubscriberListTable.Stored update(String name, Changes changes) throws SQLException {
        try {
            return Transactions.inTransaction(dataSource, c -> {
                SubscriberListTable.Stored old = lists.find(c, name == null ? "" : name.strip()).orElseThrow(() -> unknown(name));
                SubscriberListTable.Values values = checked(changes.name().orElse(old.name()),
                        changes.description().isPresent() ? changes.description() : old.description(),
                        changes.visibility().orElse(old.visibility()), changes.optIn().orElse(old.optIn()));
                Optional<SubscriberListTable.Stored> holder = lists.find(c, values.name());
                if (holder.isPresent() && holder.get().id() != old.id()) {
                    throw taken(values.name());
                }
                lists.update(c, old.id(), values, clock.instant());
                return lists.find(c, values.name()).orElseThrow();
            });
        } catch (SQLIntegrityConstraintViolationException e) {
            throw taken(changes.name().orElse(name));
        }
    }

    /**
     * Deletes the list and its subscriptions; the history of its subscribers keeps its events, naming
     * no list. Returns how many subscriptions went with it.
     *
     * @throws InvalidFields naming {@code name} when there is no such list, or a campaign not yet
     *                       completed or cancelled is sent to it
     */
    public long delete(String name) throws SQLException {
        return Transactions.inTransaction(dataSource, c -> {
            SubscriberListTable.Stored list = lists.find(c, name == null ? "" : name.strip()).orElseThrow(() -> unknown(name));
            List<Long> sending = targets.openCampaignsOf(c, list.id(), 5);
            if (!sending.isEmpty()) {
                throw InvalidFields.of("name", "list '" + list.name() + "' is the audience of campaign "
                        + sending.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "))
                        + "; complete, cancel or change " + (sending.size() == 1 ? "it" : "them") + " first");
            }
            long members = subscriptions.count(c, list.id());
            lists.delete(c, list.id());
            return members;
        });
    }

    /** The one message for a list name that names no list, whichever field gave it. */
    static InvalidFields unknown(String field, String name) {
        return InvalidFields.of(field, "no list named '" + (name == null ? "" : name.strip()) + "'");
    }

    private static InvalidFields unknown(String name) {
        return unknown("name", name);
    }

    private static InvalidFields taken(String name) {
        return InvalidFields.of("name", "a list named '" + name.strip() + "' exists already");
    }

    private static SubscriberListTable.Values checked(String name, Optional<String> description, ListVisibility visibility,
                                                      ListOptIn optIn) {
        List<InvalidFields.Problem> problems = new ArrayList<>();
        Optional<String> n = TextFields.oneLine("name", name, MAX_NAME, problems);
        if (n.isEmpty()) {
            problems.add(new InvalidFields.Problem("name", "must not be blank"));
        }
        Optional<String> d = TextFields.oneLine("description", description.orElse(null), MAX_DESCRIPTION, problems);
        if (visibility == null) {
            problems.add(new InvalidFields.Problem("visibility", "must be public or private"));
        }
        if (optIn == null) {
            problems.add(new InvalidFields.Problem("optIn", "must be single or double"));
        }
        TextFields.throwIfAny(problems);
        return new SubscriberListTable.Values(n.get(), d, visibility, optIn);
    }
}
