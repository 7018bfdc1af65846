package dev.mailrun.http.server;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import org.eclipse.jetty.io.EofException;

/**
 * Whether a streamed answer broke off because the client went away (closed the connection, reset
 * it): an ordinary event for a download, logged in one line, not an error of ours.
 */
public final class ClientGone {

    private ClientGone() {}

    /** Whether {@code e}, or a cause of it, is the connection to the client closing under a write. */
    public static boolean is(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof EofException || t instanceof ClosedChannelException) {
                return true;
            }
            if (t instanceof IOException && t.getMessage() != null
                    && (t.getMessage().contains("Broken pipe") || t.getMessage().contains("Connection reset"))) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
