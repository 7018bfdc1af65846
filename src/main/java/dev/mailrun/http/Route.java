package dev.mailrun.http;

import dev.mailrun.campaign.feedback.FeedbackProcessor;
import dev.mailrun.campaign.report.CampaignReportJson;
import dev.mailrun.campaign.tracking.Tracker;
import dev.mailrun.campaign.unsubscribe.TrackingTokens;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.mail.feedback.FeedbackWebhook;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;

/**
 * One route of the {@link HttpServer}: a Jetty path spec ({@code /u/*}, {@code /health}) and the
 * handler behind it. The factories here are the catalogue of routes; the wiring picks which to serve.
 */
public final class Route {

    private final String pathSpec;
    private final Function<HttpLimits, Handler> handler;
    private final boolean ownAuthentication;
    private final Optional<SessionCheck> sessions;

    private Route(String pathSpec, Function<HttpLimits, Handler> handler) {
        this(pathSpec, handler, false, Optional.empty());
    }

    private Route(String pathSpec, Function<HttpLimits, Handler> handler, boolean ownAuthentication,
                  Optional<SessionCheck> sessions) {
        this.pathSpec = pathSpec;
        this.handler = handler;
        this.ownAuthentication = ownAuthentication;
        this.sessions = sessions;
    }

    /**
     * This route, opened also by a request that {@code sessions} admits (the console's login) where the
     * listener asks for a bearer token: so that a browser can show it.
     */
    public Route orSession(SessionCheck sessions) {
        return new Route(pathSpec, handler, ownAuthentication, Optional.of(sessions));
    }

    /**
     * A route that authenticates every request itself (the API: its own tokens and scopes, with the
     * listener's bearer token accepted as one of them), so the listener's bearer token check does not
     * stand in front of it.
     */
    public static Route authenticatingItself(String pathSpec, Function<HttpLimits, Handler> handler) {
        return new Route(pathSpec, handler, true, Optional.empty());
    }

    /** One-click unsubscribe, {@code /u/<token>}. */
    public static Route unsubscribe(UnsubscribeTokens tokens, Unsubscriber unsubscriber) {
        return new Route(UnsubscribeTokens.PATH_PREFIX + "*", limits -> new UnsubscribeHandler(tokens, unsubscriber, limits));
    }

    /** The click endpoint, {@code /c/<token>} (docs/TRACKING.md), behind {@code proxies}. */
    public static Route trackedClicks(TrackingTokens tokens, Tracker tracker, TrustedProxies proxies) {
        return new Route(TrackingTokens.CLICK_PREFIX + "*", limits -> new TrackingHandler(tokens, tracker, proxies));
    }

    /** The open endpoint, {@code /o/<token>.gif} (docs/TRACKING.md), behind {@code proxies}. */
    public static Route trackedOpens(TrackingTokens tokens, Tracker tracker, TrustedProxies proxies) {
        return new Route(TrackingTokens.OPEN_PREFIX + "*", limits -> new TrackingHandler(tokens, tracker, proxies));
    }

    /** {@code /metrics}: the Prometheus text format (version 0.0.4) that {@code scrape} renders. */
    public static Route metrics(Supplier<String> scrape) {
        return new Route("/metrics", limits -> new ReadOnlyHandler(() -> new ReadOnlyHandler.Reply(HttpStatus.OK_200,
                "text/plain; version=0.0.4; charset=utf-8", scrape.get())));
    }

    /** A health probe at {@code path}: 200 with {@code "status":"UP"} when every check is up, else 503. */
    public static Route probe(String path, Supplier<Probe> probe) {
        return new Route(path, limits -> new ReadOnlyHandler(() -> {
            Probe p = probe.get();
            return new ReadOnlyHandler.Reply(p.up() ? HttpStatus.OK_200 : HttpStatus.SERVICE_UNAVAILABLE_503,
                    TextResponse.JSON, ProbeJson.of(p));
        }));
    }

    /** {@code /status}: the status page of every campaign, refreshing itself every {@code refresh}. */
    public static Route statusPage(StatusSource source, Duration refresh) {
        return new Route("/status", limits -> new ReadOnlyHandler(() -> new ReadOnlyHandler.Reply(HttpStatus.OK_200,
                TextResponse.HTML, StatusPage.render(source.reports(), Optional.of(refresh)))));
    }

    /** {@code /status.json}: what {@code campaign status --json} prints for every campaign. */
    public static Route statusJson(StatusSource source) {
        return new Route("/status.json", limits -> new ReadOnlyHandler(() -> new ReadOnlyHandler.Reply(HttpStatus.OK_200,
                TextResponse.JSON, CampaignReportJson.of(source.reports()))));
    }

    /** An email provider's webhook, {@code /feedback/<provider>}. */
    public static Route feedback(FeedbackWebhook webhook, FeedbackProcessor processor) {
        return new Route("/feedback/" + webhook.provider().id(), limits -> new FeedbackHandler(webhook, processor, limits));
    }

    String pathSpec() {
        return pathSpec;
    }

    boolean ownAuthentication() {
        return ownAuthentication;
    }

    Optional<SessionCheck> sessions() {
        return sessions;
    }

    Handler handler(HttpLimits limits) {
        return handler.apply(limits);
    }

    @Override
    public String toString() {
        return pathSpec;
    }
}
