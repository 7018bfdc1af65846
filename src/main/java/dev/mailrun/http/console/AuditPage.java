package dev.mailrun.http.console;

import dev.mailrun.campaign.store.ApiAuditTable;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code /console/audit}: who did what — the newest writes through the API and the console (what
 * {@code mailrun audit list} prints), refusals included. Admin scope only: it names every token's actions.
 */
final class AuditPage {

    static final int LIMIT = 200;
    /** How far back the page looks: the audit trail keeps more; {@code audit list --since} reads it all. */
    static final Duration WINDOW = Duration.ofDays(30);

    private final ConsoleServices services;
    private final Views views;

    AuditPage(ConsoleServices services, Views views) {
        this.services = services;
        this.views = views;
    }

    Answer show(ConsoleRequest r) throws Exception {
        Instant since = services.api().clock().instant().minus(WINDOW);
        List<ApiAuditTable.Entry> entries = services.api().audit().newest(since, LIMIT);
        List<Map<String, Object>> rows = entries.stream().map(e -> Map.<String, Object>of("at", e.at().toString(),
                "token", e.tokenName(), "action", e.action(), "target", e.target(), "status", e.status(),
                "detail", e.detail().orElse(""))).toList();
        return Answer.ok(views.render("audit", r.session(), Map.of("entries", rows, "limit", LIMIT, "days", WINDOW.toDays())));
    }
}
