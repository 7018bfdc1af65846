package dev.mailrun.http;

import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import java.util.function.Function;
import org.eclipse.jetty.server.Handler;

/**
 * One route of the {@link HttpServer}: a Jetty path spec ({@code /u/*}, {@code /health}) and the
 * handler behind it. The factories here are the catalogue of routes; the wiring picks which to serve.
 */
public final class Route {

    private final String pathSpec;
    private final Function<HttpLimits, Handler> handler;

    private Route(String pathSpec, Function<HttpLimits, Handler> handler) {
        this.pathSpec = pathSpec;
        this.handler = handler;
    }

    /** One-click unsubscribe, {@code /u/<token>}. */
    public static Route unsubscribe(UnsubscribeTokens tokens, Unsubscriber unsubscriber) {
        return new Route(UnsubscribeTokens.PATH_PREFIX + "*", limits -> new UnsubscribeHandler(tokens, unsubscriber, limits));
    }

    String pathSpec() {
        return pathSpec;
    }

    Handler handler(HttpLimits limits) {
        return handler.apply(limits);
    }

    @Override
    public String toString() {
        return pathSpec;
    }
}
