package dev.mailrun.http.console;

import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.model.SubscriptionStatus;
import dev.mailrun.campaign.store.audience.SubscriberListTable;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /console/lists}: every list with its visibility, opt-in, description and how many
 * subscriptions it has in each status, as {@code lists list} shows them; a form that creates one (a bad
 * value shown beside its field, nothing created) and a button that deletes one (the list's refusal, a
 * campaign still sent to it, shown as one line). A list's name and description cannot be changed here.
 */
final class ListsPage {

    private final Views views;
    private final Lists lists;

    ListsPage(ConsoleServices services, Views views) {
        this.views = views;
        this.lists = services.audience().lists();
    }

    Answer show(ConsoleRequest r) throws SQLException {
        return page(r, 200, Map.of(), Map.of());
    }

    Answer create(ConsoleRequest r) throws SQLException {
        Optional<ListVisibility> visibility = ListVisibility.parse(r.field("visibility").orElse("private"));
        Optional<ListOptIn> optIn = ListOptIn.parse(r.field("optIn").orElse("single"));
        SubscriberListTable.Stored created;
        try {
            created = lists.create(new Lists.NewList(r.form().getOrDefault("name", ""), r.field("description"),
                    visibility.orElse(null), optIn.orElse(null)));
        } catch (InvalidFields e) {
            return page(r, 422, r.form(), AudienceForms.errors(e));
        }
        r.session().flash(false, "List " + created.name() + " is created (" + created.visibility().dbValue() + ", "
                + created.optIn().dbValue() + " opt-in).");
        return Answer.redirect(ConsoleHandler.PREFIX + "/lists");
    }

    Answer delete(ConsoleRequest r) throws Exception {
        String name = r.field("name").orElse("");
        long members;
        try {
            members = lists.delete(name);
        } catch (InvalidFields e) {
            throw new Refusal("/lists", "List " + name + " was not deleted: " + e.problems().get(0).reason() + ".");
        }
        r.session().flash(false, "List " + name + " is deleted, with its " + members + " subscription(s); its subscribers stay.");
        return Answer.redirect(ConsoleHandler.PREFIX + "/lists");
    }

    private Answer page(ConsoleRequest r, int status, Map<String, String> values, Map<String, String> errors) throws SQLException {
        Map<String, Object> model = new HashMap<>();
        model.put("lists", lists.list().stream().map(ListsPage::row).toList());
        Map<String, String> filled = new HashMap<>(values);
        for (String field : List.of("name", "description")) {
            filled.putIfAbsent(field, "");
        }
        filled.putIfAbsent("visibility", "private");
        filled.putIfAbsent("optIn", "single");
        model.put("values", filled);
        model.put("errors", errors);
        model.put("statuses", statuses());
        model.put("maxName", Lists.MAX_NAME);
        model.put("maxDescription", Lists.MAX_DESCRIPTION);
        return new Answer.Page(status, views.render("lists", r.session(), model));
    }

    private static Map<String, Object> row(Lists.Summary s) {
        Map<String, Object> m = new HashMap<>();
        m.put("id", s.list().id());
        m.put("name", s.list().name());
        m.put("description", s.list().description().orElse(""));
        m.put("visibility", s.list().visibility().dbValue());
        m.put("optIn", s.list().optIn().dbValue());
        m.put("counts", Arrays.stream(SubscriptionStatus.values()).map(st -> s.counts().getOrDefault(st, 0L)).toList());
        return m;
    }

    static List<String> statuses() {
        return Arrays.stream(SubscriptionStatus.values()).map(SubscriptionStatus::dbValue).toList();
    }
}
