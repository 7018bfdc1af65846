package dev.mailrun.http.server;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Reads a request body to its end, at most {@code maxBytes} of it and within {@code timeout}, and
 * tells the outcome exactly once ({@link BodyChunks}). {@link #read} drops the
 * bytes (the unsubscribe route acts on the URL, and only on a request that arrived whole);
 * {@link #collect} keeps them, for the webhooks whose signatures cover the body.
 */
public final class BodyReader extends BodyChunks {

    /** Told how a collected body ended: the whole body when COMPLETE, otherwise what had arrived. */
    @FunctionalInterface
    public interface Collected {
        void accept(Outcome outcome, byte[] body, Throwable failure);
    }

    private final Collected then;
    private final ByteArrayOutputStream kept;
    private volatile Scheduler.Task deadline;

    private BodyReader(Request request, int maxBytes, Collected then, boolean keep) {
        super(request, maxBytes);
        this.then = then;
        this.kept = keep ? new ByteArrayOutputStream((int) Math.min(Math.max(request.getLength(), 256), maxBytes)) : null;
    }

    /**
     * Starts reading; {@code then} runs once, on a Jetty thread: after the last byte, when the body
     * grows past {@code maxBytes} (at once when its Content-Length says so), at the deadline, or when
     * the connection fails (the client went away, a broken chunked encoding: {@code BROKEN} with the
     * failure as the second argument, otherwise null).
     */
    public static void read(Request request, int maxBytes, Duration timeout, BiConsumer<Outcome, Throwable> then) {
        start(new BodyReader(request, maxBytes, (outcome, body, failure) -> then.accept(outcome, failure), false), timeout);
    }

    /** Like {@link #read}, and hands over the body's bytes too. */
    public static void collect(Request request, int maxBytes, Duration timeout, Collected then) {
        start(new BodyReader(request, maxBytes, then, true), timeout);
    }

    private static void start(BodyReader reader, Duration timeout) {
        reader.deadline = reader.request().getComponents().getScheduler()
                .schedule(() -> reader.decide(Outcome.TIMED_OUT, null), timeout.toMillis(), TimeUnit.MILLISECONDS);
        reader.start();
    }

    @Override
    protected void take(ByteBuffer buffer) {
        if (kept != null) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            kept.write(bytes, 0, bytes.length);
        }
    }

    @Override
    protected void finish(Outcome outcome, Throwable failure) {
        Scheduler.Task task = deadline;
        if (task != null) {
            task.cancel();
        }
        then.accept(outcome, kept == null ? new byte[0] : kept.toByteArray(), failure);
    }
}
