package dev.mailrun.http.console;

import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.Subscriber;
import dev.mailrun.campaign.audience.SubscriberSearch;
import dev.mailrun.campaign.audience.Subscribers;
import dev.mailrun.campaign.model.InvalidFields;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /console/subscribers[?email=&list=&status=&after=]}: the subscribers whose address starts
 * with {@code email}, on {@code list}, in {@code status}, {@value SubscriberSearch#DEFAULT_LIMIT} a page
 * in id order, as {@code subscribers search} finds them; Next opens the page after the last id shown (a
 * keyset page: subscribers added or deleted meanwhile shift none). Each row links to its subscriber's page.
 * A bad value is shown beside its field, and no row.
 */
final class SubscriberSearchPage {

    private final Views views;
    private final Subscribers subscribers;
    private final Lists lists;

    SubscriberSearchPage(ConsoleServices services, Views views) {
        this.views = views;
        this.subscribers = services.audience().subscribers();
        this.lists = services.audience().lists();
    }

    Answer show(ConsoleRequest r) throws SQLException {
        Optional<String> email = r.param("email");
        Optional<String> list = r.param("list");
        Optional<String> status = r.param("status");
        Optional<String> after = r.param("after");
        Map<String, Object> model = new HashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        long from = 0;
        if (after.isPresent()) {
            if (after.get().matches("\\d{1,18}")) {
                from = Long.parseLong(after.get());
            } else {
                errors.put("after", "the page starts after a subscriber id (digits), not '" + after.get() + "': start from the first page");
            }
        }
        model.put("rows", List.of());
        model.put("next", null);
        if (errors.isEmpty()) {
            try {
                Subscribers.Page page = subscribers.search(new SubscriberSearch(email, list, status, SubscriberSearch.DEFAULT_LIMIT, from));
                model.put("rows", page.rows().stream().map(SubscriberSearchPage::row).toList());
                model.put("next", page.next().map(id -> next(email, list, status, id)).orElse(null));
            } catch (InvalidFields e) {
                errors.putAll(AudienceForms.errors(e));
            }
        }
        Map<String, String> values = new HashMap<>();
        values.put("email", email.orElse(""));
        values.put("list", list.orElse(""));
        values.put("status", status.orElse(""));
        model.put("values", values);
        model.put("errors", errors);
        model.put("paged", from > 0);
        model.put("lists", lists.list().stream().map(s -> s.list().name()).toList());
        model.put("statuses", List.of("enabled", "blocklisted", "unconfirmed", "confirmed", "unsubscribed"));
        return new Answer.Page(errors.isEmpty() ? 200 : 422, views.render("subscribers", r.session(), model));
    }

    private static Map<String, Object> row(Subscriber s) {
        return Map.of("id", s.id(), "email", s.email(), "name", s.name().orElse(""), "status", s.status().dbValue(),
                "href", ConsoleHandler.PREFIX + AudienceForms.subscriber(s.email()), "created", s.createdAt().toString());
    }

    /** The link to the next page: the same search, after {@code id}. */
    private static String next(Optional<String> email, Optional<String> list, Optional<String> status, long id) {
        StringBuilder q = new StringBuilder(ConsoleHandler.PREFIX + "/subscribers?");
        email.ifPresent(e -> q.append("email=").append(AudienceForms.encode(e)).append('&'));
        list.ifPresent(l -> q.append("list=").append(AudienceForms.encode(l)).append('&'));
        status.ifPresent(s -> q.append("status=").append(AudienceForms.encode(s)).append('&'));
        return q.append("after=").append(id).toString();
    }
}
