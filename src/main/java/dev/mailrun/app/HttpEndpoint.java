package dev.mailrun.app;

import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.http.status.StatusRoutes;
import dev.mailrun.http.endpoint.PublicRoutes;
import dev.mailrun.campaign.tracking.Tracker;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.TrackingTokens;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.health.ProbeResult;
import dev.mailrun.campaign.CampaignStates;
import dev.mailrun.campaign.TestSend;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.app.config.ConfigException;
import dev.mailrun.campaign.send.route.RelayConfigs;
import dev.mailrun.health.Readiness;
import dev.mailrun.http.server.HttpLimits;
import dev.mailrun.http.server.HttpServer;
import dev.mailrun.http.server.Listener;
import dev.mailrun.http.server.PublicPage;
import dev.mailrun.http.status.Probe;
import dev.mailrun.http.server.Route;
import dev.mailrun.http.server.TrustedProxies;
import dev.mailrun.http.api.ApiHandler;
import dev.mailrun.http.api.ApiServices;
import dev.mailrun.http.console.ConsoleAudience;
import dev.mailrun.http.console.ConsoleContent;
import dev.mailrun.http.console.ConsoleServices;
import dev.mailrun.mail.feedback.HttpsFetcher;
import dev.mailrun.mail.feedback.JdkHttpsFetcher;
import dev.mailrun.metrics.MailrunMetrics;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The HTTP endpoint, started from configuration: the public listener on http.bind:http.port (one-click
 * unsubscribe, the web versions of messages, the webhooks of the enabled email providers, the tracking endpoints when tracking.enabled) and the admin listener on admin.bind:admin.port (metrics, health probes, status page, the HTTP API under /api/v1, the operator console under /console),
 * each only when its port is set, both on one server. Stopping it takes at most tick.shutdown-grace.
 */
public final class HttpEndpoint implements AutoCloseable {

    static final String PUBLIC = "public";
    static final String ADMIN = "admin";
    /** How often the status page reloads itself. */
    static final Duration STATUS_REFRESH = Duration.ofSeconds(10);
    /** How long a console session lasts without a request. */
    static final Duration CONSOLE_IDLE = Duration.ofMinutes(30);

    private final HttpServer server;
    private final Readiness readiness;

    private HttpEndpoint(HttpServer server, Readiness readiness) {
        this.server = server;
        this.readiness = readiness;
    }

    public static HttpEndpoint none() {
        return new HttpEndpoint(null, null);
    }

    /** Whether the configuration asks for any listener. */
    public static boolean configured(Services s) {
        return s.config().unsubscribe().httpPort().isPresent() || s.config().admin().port().isPresent();
    }

    /** The listeners of a process that is not a worker: readiness does not look for a tick loop. */
    public static HttpEndpoint start(Services s) throws IOException {
        return start(s, false);
    }

    /** @param worker whether this process runs the tick loop, whose heartbeat readiness then requires */
    public static HttpEndpoint start(Services s, boolean worker) throws IOException {
        return start(s, worker, new JdkHttpsFetcher());
    }

    /** @param fetcher how SNS signing certificates are fetched (tests hand out a local one) */
    public static HttpEndpoint start(Services s, boolean worker, HttpsFetcher fetcher) throws IOException {
        List<Listener> listeners = new ArrayList<>();
        s.config().unsubscribe().httpPort().ifPresent(port -> {
            SigningKey key = SigningKey.of(s.config().unsubscribe().requireSecret().reveal());
            List<Route> routes = new ArrayList<>();
            // One shell for every page a person sees here, so the operator's look (pages.*) is everywhere.
            PublicPage shell = new PublicPage(s.config().signup().look());
            routes.add(PublicRoutes.unsubscribe(new UnsubscribeTokens(key),
                    new Unsubscriber(s.dataSource(), new SuppressionTable(), s.clock()), shell, s.config().signup().language()));
            // Web version links exist only where messages are sent, which needs the base URL they are made on.
            s.config().unsubscribe().baseUrl().ifPresent(base -> routes.add(
                    PublicRoutes.webVersion(ProductionLinks.webVersions(s), URI.create(base), s.webVersions(), shell)));
            // The preference centre's links are made where messages are sent to lists, on the same base URL.
            s.config().unsubscribe().baseUrl().ifPresent(base -> routes.add(
                    PublicRoutes.preferences(PreferenceWiring.centre(s, base), shell)));
            routes.addAll(FeedbackRoutes.of(s, fetcher));
            routes.addAll(SignupRoutes.of(s, key, shell));
            if (s.config().tracking().enabled()) {
                TrackingTokens tokens = new TrackingTokens(key);
                Tracker tracker = s.tracker();
                tracker.flusher().start();
                TrustedProxies proxies = s.config().tracking().trustedProxies();
                routes.add(PublicRoutes.trackedClicks(tokens, tracker, proxies, shell));
                routes.add(PublicRoutes.trackedOpens(tokens, tracker, proxies, shell));
            }
            // The listener's own error answers (an unknown path, a refused request) are in the same shell.
            listeners.add(Listener.open(PUBLIC, s.config().httpBind(), port, routes).withPages(shell));
        });
        Readiness readiness = null;
        if (s.config().admin().port().isPresent()) {
            CampaignStates relayStates = new CampaignStates(s.dataSource(), s.clock());
            readiness = new Readiness(s.dataSource(), worker ? Optional.of(s.heartbeat()) : Optional.empty(), s.clock())
                    .withRelayNotes(() -> relayStates.relayDisagreements().stream().map(RelayConfigs.Disagreement::line).toList());
            MailrunMetrics metrics = s.metrics();
            Readiness ready = readiness;
            metrics.bindReady(() -> ready.ready().up());
            ApiServices api = apiServices(s);
            ConsoleContent content = new ConsoleContent(s.templateStore(),
                    () -> new dev.mailrun.campaign.TestSend(s.sendHandler().dependencies(), s.clock()));
            AudienceServices audience = s.audience();
            ConsoleAudience people = new ConsoleAudience(audience.lists(), audience.subscribers(), audience.importer(),
                    audience.segments());
            ConsoleServices console = new ConsoleServices(api, content, people, CONSOLE_IDLE, s.config().admin().console());
            List<Route> routes = List.of(StatusRoutes.metrics(metrics::scrape),
                    StatusRoutes.probe("/health/live", () -> probe(ready.live())),
                    StatusRoutes.probe("/health/ready", () -> probe(ready.ready())),
                    StatusRoutes.statusPage(() -> s.reports().all(), STATUS_REFRESH).orSession(console.sessionCheck()),
                    StatusRoutes.statusJson(() -> s.reports().all()),
                    Route.authenticatingItself("/api/v1/*", limits -> new ApiHandler(api, limits)),
                    Route.authenticatingItself("/console/*", console::handler));
            listeners.add(new Listener(ADMIN, s.config().admin().bind(), s.config().admin().port().get(), routes,
                    s.config().admin().token()));
        }
        if (listeners.isEmpty()) {
            return none();
        }
        try {
            HttpServer server = HttpServer.start(listeners, s.config().tick().shutdownGrace(), HttpLimits.DEFAULTS);
            if (readiness != null) {
                readiness.start();
            }
            return new HttpEndpoint(server, readiness);
        } catch (IOException | RuntimeException e) {
            if (readiness != null) {
                readiness.close();
            }
            throw e;
        }
    }

    /** The operator's API the HTTP API works through: the same objects the CLI commands call. */
    static ApiServices apiServices(Services s) {
        return new ApiServices(s.campaigns(), s.reports(), s.importer(), s.campaignExport(), s.suppressions(),
                s.suppressionImporter(), s.templateCatalogue(), s.templateStore(), () -> testSend(s), s.config().relays(),
                s.eventLog(), s.apiTokens(), s.apiAudit(), s.idempotencyKeys(), s.config().admin().token(),
                s.config().admin().api(), s.clock(), s.trackingErasure(), s.audience().lists(), s.audience().segments(),
                s.audience().subscribers(), s.audience().importer(), PreferenceWiring.erasure(s));
    }

    /** A test send as {@code send-test} makes it; a configuration that cannot send refuses it as a campaign's start would. */
    private static TestSend testSend(Services s) {
        try {
            return new TestSend(s.sendHandler().dependencies(), s.clock());
        } catch (ConfigException e) {
            throw new CampaignException("a test cannot be sent: " + e.getMessage());
        }
    }

    private static Probe probe(ProbeResult result) {
        return new Probe(result.checks().stream().map(c -> new Probe.Check(c.name(), c.up(), c.detail())).toList());
    }

    /** The public listener's port, when there is one. */
    public Optional<Integer> port() {
        return listenerPort(PUBLIC);
    }

    /** The admin listener's port, when there is one. */
    public Optional<Integer> adminPort() {
        return listenerPort(ADMIN);
    }

    private Optional<Integer> listenerPort(String name) {
        if (server == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(server.port(name));
        } catch (IllegalArgumentException absent) {
            return Optional.empty();
        }
    }

    /** Idempotent; a second call from another thread waits until the first has stopped the server. */
    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        if (readiness != null) {
            readiness.close();
        }
    }
}
