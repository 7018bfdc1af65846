package dev.mailrun.app;

import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.UnsubscribeServer;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import java.io.IOException;
import java.util.Optional;

/** The unsubscribe HTTP endpoint, started from configuration, or nothing. */
public final class UnsubscribeEndpoint implements AutoCloseable {

    private final UnsubscribeServer server;

    private UnsubscribeEndpoint(UnsubscribeServer server) {
        this.server = server;
    }

    public static UnsubscribeEndpoint none() {
        return new UnsubscribeEndpoint(null);
    }

    public static UnsubscribeEndpoint start(Services s) throws IOException {
        SigningKey key = SigningKey.of(s.config().unsubscribe().requireSecret().reveal());
        UnsubscribeServer server = new UnsubscribeServer(new UnsubscribeTokens(key),
                new Unsubscriber(s.dataSource(), new SuppressionTable(), s.clock()));
        server.start(s.config().httpBind(), s.config().unsubscribe().httpPort().orElse(0));
        return new UnsubscribeEndpoint(server);
    }

    public Optional<Integer> port() {
        return server == null ? Optional.empty() : Optional.of(server.port());
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
