package dev.mailrun.http.server;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a connection whose next request line and headers are not all in within the head timeout,
 * counted from its opening or from its last answer. Jetty's idle timeout alone does not stop a
 * client that sends one byte of its headers every few seconds; this does.
 *
 * <ol>
 *   <li>A connection opens: its deadline is set.</li>
 *   <li>A request reaches the handlers (its head is complete): the deadline is lifted; the body
 *       timeout and the idle timeout now bound the request.</li>
 *   <li>The answer is sent and the connection stays open: a new deadline is set for the next request.</li>
 *   <li>The deadline passes first: the connection is closed.</li>
 * </ol>
 */
final class RequestHeadDeadline extends Handler.Wrapper implements Connection.Listener {

    private static final Logger log = LoggerFactory.getLogger(RequestHeadDeadline.class);

    private final Scheduler scheduler;
    private final long timeoutMillis;
    private final ConcurrentMap<Connection, Deadline> waiting = new ConcurrentHashMap<>();

    RequestHeadDeadline(Scheduler scheduler, Duration timeout, Handler handler) {
        super(handler);
        this.scheduler = scheduler;
        this.timeoutMillis = timeout.toMillis();
    }

    @Override
    public void onOpened(Connection connection) {
        arm(connection);
    }

    @Override
    public void onClosed(Connection connection) {
        lift(connection);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Connection connection = request.getConnectionMetaData().getConnection();
        lift(connection);
        return super.handle(request, response, new Callback.Nested(callback) {
            @Override
            public void succeeded() {
                // Set before Jetty reads the next request on this connection, so that one is timed too.
                if (connection.getEndPoint().isOpen()) {
                    arm(connection);
                }
                super.succeeded();
            }
        });
    }

    private void arm(Connection connection) {
        Deadline deadline = new Deadline(connection);
        Deadline previous = waiting.put(connection, deadline);
        if (previous != null) {
            previous.cancel();
        }
        deadline.task = scheduler.schedule(deadline, timeoutMillis, TimeUnit.MILLISECONDS);
    }

    private void lift(Connection connection) {
        Deadline deadline = waiting.remove(connection);
        if (deadline != null) {
            deadline.cancel();
        }
    }

    private final class Deadline implements Runnable {
        private final Connection connection;
        private volatile Scheduler.Task task;

        Deadline(Connection connection) {
            this.connection = connection;
        }

        @Override
        public void run() {
            if (waiting.remove(connection, this)) {
                log.debug("closing {}: no complete request head within {} ms", connection.getEndPoint().getRemoteSocketAddress(),
                        timeoutMillis);
                connection.getEndPoint().close();
            }
        }

        void cancel() {
            Scheduler.Task t = task;
            if (t != null) {
                t.cancel();
            }
        }
    }
}
