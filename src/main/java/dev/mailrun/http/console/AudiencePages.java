package dev.mailrun.http.console;

import dev.mailrun.campaign.model.ApiScope;
import java.util.List;

/**
 * The console's audience pages, below {@code /console}: lists, subscribers, imports into a list and
 * segments. They read with the scope that reads campaigns (whose exports name their recipients) and
 * change with the one that imports recipients; the API's scopes, as every console page's.
 */
final class AudiencePages {

    static final ApiScope READ = ApiScope.AUDIENCE_READ;
    static final ApiScope WRITE = ApiScope.AUDIENCE_WRITE;

    private AudiencePages() {}

    /** The lists, subscribers, imports into a list and segments (docs/AUDIENCE.md). */
    static List<ConsoleRoute> routes(ConsoleServices services, Views views) {
        ListsPage lists = new ListsPage(services, views);
        SubscriberSearchPage search = new SubscriberSearchPage(services, views);
        SubscriberPage subscriber = new SubscriberPage(services, views);
        ListImportPage imports = new ListImportPage(services, views);
        SegmentsPage segments = new SegmentsPage(services, views);
        SegmentPage segment = new SegmentPage(services, views);
        return List.of(
                ConsoleRoute.get("/lists", READ, lists::show),
                ConsoleRoute.post("/lists/create", WRITE, "list.create", lists::create),
                ConsoleRoute.post("/lists/delete", WRITE, "list.delete", lists::delete),
                ConsoleRoute.get("/subscribers", READ, search::show),
                ConsoleRoute.get("/subscribers/import", WRITE, imports::show),
                ConsoleRoute.post("/subscribers/import", WRITE, "subscribers.import", imports::upload),
                ConsoleRoute.get("/subscriber", READ, subscriber::show),
                ConsoleRoute.post("/subscriber/blocklist", WRITE, "subscriber.blocklist", subscriber::blocklist),
                ConsoleRoute.post("/subscriber/lists", WRITE, "subscriber.subscribe", subscriber::subscribe),
                ConsoleRoute.get("/subscriber/delete", WRITE, subscriber::ask),
                ConsoleRoute.post("/subscriber/delete", WRITE, "subscriber.delete", subscriber::delete),
                ConsoleRoute.get("/segments", READ, segments::show),
                ConsoleRoute.post("/segments/create", WRITE, "segment.create", SegmentsPage.MAX_FORM_BYTES, segments::create),
                ConsoleRoute.post("/segments/delete", WRITE, "segment.delete", segments::delete),
                ConsoleRoute.get("/segment", READ, segment::show));
    }
}
