package dev.mailrun.http.server;

import org.eclipse.jetty.server.Request;

/**
 * Whether a request carries a browser session that may read the admin pages. The console owns the
 * sessions; the listener's bearer-token check asks this on the routes that also open in a browser
 * ({@link Route#orSession}), because a browser cannot send an {@code Authorization} header by itself.
 */
@FunctionalInterface
public interface SessionCheck {

    boolean admits(Request request);
}
