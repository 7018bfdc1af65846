package dev.mailrun.http.status;

import dev.mailrun.campaign.report.CampaignReportJson;
import dev.mailrun.http.server.ReadOnlyHandler;
import dev.mailrun.http.server.Route;
import dev.mailrun.http.server.TextResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpStatus;

/** The admin listener's read-only routes: what an operator, or a monitoring system, reads of the worker. */
public final class StatusRoutes {

    private StatusRoutes() {}

    /** {@code /metrics}: the Prometheus text format (version 0.0.4) that {@code scrape} renders. */
    public static Route metrics(Supplier<String> scrape) {
        return Route.of("/metrics", limits -> new ReadOnlyHandler(() -> new ReadOnlyHandler.Reply(HttpStatus.OK_200,
                "text/plain; version=0.0.4; charset=utf-8", scrape.get())));
    }

    /** A health probe at {@code path}: 200 with {@code "status":"UP"} when every check is up, else 503. */
    public static Route probe(String path, Supplier<Probe> probe) {
        return Route.of(path, limits -> new ReadOnlyHandler(() -> {
            Probe p = probe.get();
            return new ReadOnlyHandler.Reply(p.up() ? HttpStatus.OK_200 : HttpStatus.SERVICE_UNAVAILABLE_503,
                    TextResponse.JSON, ProbeJson.of(p));
        }));
    }

    /** {@code /status}: the status page of every campaign, refreshing itself every {@code refresh}. */
    public static Route statusPage(StatusSource source, Duration refresh) {
        return Route.of("/status", limits -> new ReadOnlyHandler(() -> new ReadOnlyHandler.Reply(HttpStatus.OK_200,
                TextResponse.HTML, StatusPage.render(source.reports(), Optional.of(refresh)))));
    }

    /** {@code /status.json}: what {@code campaign status --json} prints for every campaign. */
    public static Route statusJson(StatusSource source) {
        return Route.of("/status.json", limits -> new ReadOnlyHandler(() -> new ReadOnlyHandler.Reply(HttpStatus.OK_200,
                TextResponse.JSON, CampaignReportJson.of(source.reports()))));
    }
}
