package dev.mailrun.http.console;

import dev.mailrun.campaign.audience.segment.Segments;
import dev.mailrun.campaign.store.audience.SegmentTable;
import dev.mailrun.campaign.store.audience.SubscriberMatches;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /console/segment?name=…}: one segment as {@code segments show} shows it — its filter, how
 * many subscribers it matches now, its times — and its first {@value #PREVIEW} subscribers in id order,
 * each a link to the subscriber's page.
 */
final class SegmentPage {

    static final int PREVIEW = 20;

    private final Views views;
    private final Segments segments;

    SegmentPage(ConsoleServices services, Views views) {
        this.views = views;
        this.segments = services.audience().segments();
    }

    Answer show(ConsoleRequest r) throws SQLException {
        Optional<String> name = r.param("name").filter(n -> n.length() <= Segments.MAX_NAME);
        Optional<SegmentTable.Stored> found = name.isEmpty() ? Optional.empty() : segments.get(name.get());
        if (found.isEmpty()) {
            return Answer.error(404, "There is no segment " + name.orElse("(no name given)") + ": see the Segments page.");
        }
        SegmentTable.Stored s = found.get();
        return Answer.ok(views.render("segment", r.session(), Map.of(
                "s", Map.of("name", s.name(), "filter", s.filter(), "created", s.createdAt().toString(),
                        "updated", s.updatedAt().toString()),
                "count", segments.count(s.name()),
                "preview", segments.previewSegment(s.name(), PREVIEW).stream().map(SegmentPage::row).toList(),
                "previewSize", PREVIEW)));
    }

    private static Map<String, Object> row(SubscriberMatches.Match m) {
        return Map.of("id", m.id(), "email", m.email(), "name", m.name().orElse(""), "status", m.status().dbValue(),
                "href", ConsoleHandler.PREFIX + AudienceForms.subscriber(m.email()));
    }
}
