package dev.mailrun.campaign.audience;

import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.SubscriberStatus;
import dev.mailrun.campaign.model.SubscriptionStatus;
import dev.mailrun.campaign.store.audience.SubscriberFilterSql;
import dev.mailrun.campaign.store.audience.SubscriberTable;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** A {@link SubscriberSearch} checked field by field and turned into the table's query. */
final class SearchQuery {

    /** A list's id by its name. */
    @FunctionalInterface
    interface ListIds {
        Optional<Long> of(String name) throws SQLException;
    }

    private SearchQuery() {}

    /**
     * The query, asking one row more than the page holds: whether it comes says if there is a next page.
     *
     * @throws InvalidFields naming {@code email}, {@code list}, {@code status}, {@code limit}, {@code after},
     *                       {@code attribute}, {@code value}
     */
    static SubscriberTable.Query of(SubscriberSearch s, ListIds lists, int maxPage) throws SQLException {
        List<InvalidFields.Problem> problems = new ArrayList<>();
        Optional<String> prefix = TextFields.oneLine("email", s.email().orElse(null), EmailAddress.MAX_ADDRESS_OCTETS, problems)
                .map(e -> e.toLowerCase(Locale.ROOT));
        Optional<String> listName = TextFields.oneLine("list", s.list().orElse(null), Lists.MAX_NAME, problems);
        Optional<Long> listId = Optional.empty();
        if (listName.isPresent()) {
            listId = lists.of(listName.get());
            if (listId.isEmpty()) {
                problems.addAll(Lists.unknown("list", listName.get()).problems());
            }
        }
        Optional<SubscriberStatus> status = Optional.empty();
        Optional<SubscriptionStatus> subscription = Optional.empty();
        if (s.status().isPresent() && !s.status().get().isBlank()) {
            String raw = s.status().get().strip();
            status = SubscriberStatus.parse(raw);
            subscription = SubscriptionStatus.parse(raw);
            if (status.isEmpty() && subscription.isEmpty()) {
                problems.add(new InvalidFields.Problem("status", "must be enabled or blocklisted, or on a list unconfirmed, "
                        + "confirmed or unsubscribed; got '" + raw + "'"));
            } else if (subscription.isPresent() && listName.isEmpty()) {
                problems.add(new InvalidFields.Problem("status", "'" + raw + "' is the status of a subscription: name its list too"));
            }
        }
        if (s.limit() < 1 || s.limit() > maxPage) {
            problems.add(new InvalidFields.Problem("limit", "must be 1-" + maxPage + ", got " + s.limit()));
        }
        if (s.after() < 0) {
            problems.add(new InvalidFields.Problem("after", "must be a subscriber id (0 or more), got " + s.after()));
        }
        Optional<SubscriberFilterSql.Where> attribute = Optional.empty();
        if (s.attribute().isPresent()) {
            String name = s.attribute().get().getKey() == null ? "" : s.attribute().get().getKey();
            String value = s.attribute().get().getValue() == null ? "" : s.attribute().get().getValue();
            Attributes.nameProblem(name).ifPresent(p -> problems.add(new InvalidFields.Problem("attribute", p)));
            if (value.length() > SubscriberSearch.MAX_VALUE) {
                problems.add(new InvalidFields.Problem("value", "is longer than " + SubscriberSearch.MAX_VALUE + " characters"));
            }
            attribute = Optional.of(SubscriberFilterSql.attrEquals(name, value));
        }
        TextFields.throwIfAny(problems);
        return new SubscriberTable.Query(prefix, listId, status, subscription, s.after(), s.limit() + 1, attribute);
    }
}
