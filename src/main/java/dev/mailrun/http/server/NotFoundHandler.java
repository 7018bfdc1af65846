package dev.mailrun.http.server;

import java.util.Optional;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** Every path no route claims: 404, whatever the method; in the listener's shell when it has one. */
public final class NotFoundHandler extends Handler.Abstract.NonBlocking {

    private final Optional<PublicPage> shell;

    /** @param shell the page shell of the listener; empty: the bare page */
    public NotFoundHandler(Optional<PublicPage> shell) {
        this.shell = shell;
    }

    /** The bare 404 page, for a listener without a shell. */
    public static void send(Response response, Callback callback) {
        HtmlResponse.send(response, callback, HttpStatus.NOT_FOUND_404, Html.error("Not found", "There is nothing here."));
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        shell.ifPresentOrElse(s -> s.sendError(request, response, callback, HttpStatus.NOT_FOUND_404),
                () -> send(response, callback));
        return true;
    }
}
