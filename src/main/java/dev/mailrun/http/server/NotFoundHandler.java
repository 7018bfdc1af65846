package dev.mailrun.http.server;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** Every path no route claims: 404, whatever the method. */
public final class NotFoundHandler extends Handler.Abstract.NonBlocking {

    public static void send(Response response, Callback callback) {
        HtmlResponse.send(response, callback, HttpStatus.NOT_FOUND_404, Html.error("Not found", "There is nothing here."));
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        send(response, callback);
        return true;
    }
}
