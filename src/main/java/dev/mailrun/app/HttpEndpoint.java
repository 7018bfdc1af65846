package dev.mailrun.app;

import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.http.HttpServer;
import dev.mailrun.http.HttpSettings;
import dev.mailrun.http.Route;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The HTTP endpoint (today: one-click unsubscribe) on http.bind:http.port, started from configuration,
 * or nothing. Stopping it takes at most tick.shutdown-grace.
 */
public final class HttpEndpoint implements AutoCloseable {

    private final HttpServer server;

    private HttpEndpoint(HttpServer server) {
        this.server = server;
    }

    public static HttpEndpoint none() {
        return new HttpEndpoint(null);
    }

    public static HttpEndpoint start(Services s) throws IOException {
        SigningKey key = SigningKey.of(s.config().unsubscribe().requireSecret().reveal());
        Route unsubscribe = Route.unsubscribe(new UnsubscribeTokens(key),
                new Unsubscriber(s.dataSource(), new SuppressionTable(), s.clock()));
        HttpSettings settings = HttpSettings.of(s.config().httpBind(), s.config().unsubscribe().httpPort().orElse(0),
                s.config().tick().shutdownGrace());
        return new HttpEndpoint(HttpServer.start(settings, List.of(unsubscribe)));
    }

    public Optional<Integer> port() {
        return server == null ? Optional.empty() : Optional.of(server.port());
    }

    /** Idempotent; a second call from another thread waits until the first has stopped the server. */
    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
