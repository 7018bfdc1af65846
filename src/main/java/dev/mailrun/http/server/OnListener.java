package dev.mailrun.http.server;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** Passes on only requests that arrived through one connector; the others go to the next handler. */
final class OnListener extends Handler.Wrapper {

    private final Connector connector;

    OnListener(Connector connector, Handler handler) {
        super(handler);
        this.connector = connector;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (request.getConnectionMetaData().getConnector() != connector) {
            return false;
        }
        return super.handle(request, response, callback);
    }
}
