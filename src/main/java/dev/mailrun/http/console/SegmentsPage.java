package dev.mailrun.http.console;

import dev.mailrun.campaign.audience.segment.FilterParser;
import dev.mailrun.campaign.audience.segment.Segments;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.store.audience.SegmentTable;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /console/segments}: every segment with how many subscribers it matches now (counted when the
 * page is read), a form that saves a new one from a name and a filter's JSON (docs/AUDIENCE.md,
 * "Segments") — the name's problem beside the name, every bad part of the filter by its path beside the
 * filter, nothing saved — and a button that deletes one. One segment's page is {@link SegmentPage}.
 */
final class SegmentsPage {

    /** The largest form that saves a segment: a filter's JSON of about 200 KB as a browser encodes it. */
    static final int MAX_FORM_BYTES = 256 * 1024;

    private final Views views;
    private final Segments segments;

    SegmentsPage(ConsoleServices services, Views views) {
        this.views = views;
        this.segments = services.audience().segments();
    }

    Answer show(ConsoleRequest r) throws SQLException {
        return page(r, 200, "", "", Map.of());
    }

    Answer create(ConsoleRequest r) throws SQLException {
        String name = r.form().getOrDefault("name", "");
        String filter = r.form().getOrDefault("filter", "");
        SegmentTable.Stored saved;
        try {
            saved = segments.create(name, filter);
        } catch (InvalidFields e) {
            return page(r, 422, name, filter, AudienceForms.errors(e));
        }
        r.session().flash(false, "Segment " + saved.name() + " is saved; it matches " + segments.count(saved.name())
                + " subscriber(s) now.");
        return Answer.redirect(ConsoleHandler.PREFIX + AudienceForms.segment(saved.name()));
    }

    Answer delete(ConsoleRequest r) throws Exception {
        String name = r.field("name").orElse("");
        try {
            segments.delete(name);
        } catch (InvalidFields e) {
            throw new Refusal("/segments", "Segment " + name + " was not deleted: " + e.problems().get(0).reason() + ".");
        }
        r.session().flash(false, "Segment " + name + " is deleted; its subscribers stay.");
        return Answer.redirect(ConsoleHandler.PREFIX + "/segments");
    }

    private Answer page(ConsoleRequest r, int status, String name, String filter, Map<String, String> errors) throws SQLException {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (SegmentTable.Stored s : segments.list()) {
            rows.add(Map.of("name", s.name(), "filter", s.filter(), "count", segments.count(s.name()),
                    "href", ConsoleHandler.PREFIX + AudienceForms.segment(s.name())));
        }
        Map<String, String> nameErrors = new HashMap<>();
        List<String> filterErrors = new ArrayList<>();
        errors.forEach((field, reason) -> {
            if (field.equals(FilterParser.FIELD) || field.startsWith(FilterParser.FIELD + ".") || field.startsWith(FilterParser.FIELD + "[")) {
                filterErrors.add(field + ": " + reason);
            } else {
                nameErrors.put(field, reason);
            }
        });
        Map<String, Object> model = new HashMap<>();
        model.put("segments", rows);
        model.put("values", Map.of("name", name, "filter", filter));
        model.put("errors", nameErrors);
        model.put("filterErrors", filterErrors);
        model.put("maxName", Segments.MAX_NAME);
        return new Answer.Page(status, views.render("segments", r.session(), model));
    }
}
