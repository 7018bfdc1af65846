package dev.mailrun.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Reads a request body to its end, at most {@code maxBytes} of it and within {@code timeout}, and
 * tells the outcome exactly once. It never waits on a thread: when no bytes are there it asks Jetty
 * to call it back, so a client trickling its body holds a socket, not a thread. {@link #read} drops the
 * bytes (the unsubscribe route acts on the URL, and only on a request that arrived whole);
 * {@link #collect} keeps them, for the webhooks whose signatures cover the body.
 */
public final class BodyReader implements Runnable {

    /** How reading a body ended. */
    public enum Outcome { COMPLETE, TOO_LARGE, TIMED_OUT, BROKEN }

    /** Told how a collected body ended: the whole body when COMPLETE, otherwise what had arrived. */
    @FunctionalInterface
    public interface Collected {
        void accept(Outcome outcome, byte[] body, Throwable failure);
    }

    private final Request request;
    private final int maxBytes;
    private final Collected then;
    private final ByteArrayOutputStream kept;
    private final AtomicBoolean decided = new AtomicBoolean();
    private volatile Scheduler.Task deadline;
    private long received;

    private BodyReader(Request request, int maxBytes, Collected then, boolean keep) {
        this.request = request;
        this.maxBytes = maxBytes;
        this.then = then;
        this.kept = keep ? new ByteArrayOutputStream((int) Math.min(Math.max(request.getLength(), 256), maxBytes)) : null;
    }

    /**
     * Starts reading; {@code then} runs once, on a Jetty thread: after the last byte, when the body
     * grows past {@code maxBytes} (at once when its Content-Length says so), at the deadline, or when
     * the connection fails (the client went away, a broken chunked encoding: {@code BROKEN} with the
     * failure as the second argument, otherwise null).
     */
    static void read(Request request, int maxBytes, Duration timeout, BiConsumer<Outcome, Throwable> then) {
        start(new BodyReader(request, maxBytes, (outcome, body, failure) -> then.accept(outcome, failure), false), timeout);
    }

    /** Like {@link #read}, and hands over the body's bytes too. */
    public static void collect(Request request, int maxBytes, Duration timeout, Collected then) {
        start(new BodyReader(request, maxBytes, then, true), timeout);
    }

    private static void start(BodyReader reader, Duration timeout) {
        Request request = reader.request;
        if (request.getLength() > reader.maxBytes) {
            reader.decide(Outcome.TOO_LARGE, null);
            return;
        }
        reader.deadline = request.getComponents().getScheduler()
                .schedule(() -> reader.decide(Outcome.TIMED_OUT, null), timeout.toMillis(), TimeUnit.MILLISECONDS);
        reader.run();
    }

    /** Reads what has arrived, then asks to be run again when more does. */
    @Override
    public void run() {
        while (!decided.get()) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                request.demand(this);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                // An idle timeout is a slow client like any other; anything else broke the request.
                Throwable failure = chunk.getFailure();
                decide(failure instanceof TimeoutException ? Outcome.TIMED_OUT : Outcome.BROKEN, failure);
                return;
            }
            received += chunk.remaining();
            boolean last = chunk.isLast();
            if (kept != null && received <= maxBytes) {
                ByteBuffer buffer = chunk.getByteBuffer();
                byte[] bytes = new byte[buffer.remaining()];
                buffer.get(bytes);
                kept.write(bytes, 0, bytes.length);
            }
            chunk.release();
            if (received > maxBytes) {
                decide(Outcome.TOO_LARGE, null);
                return;
            }
            if (last) {
                decide(Outcome.COMPLETE, null);
                return;
            }
        }
    }

    private void decide(Outcome outcome, Throwable failure) {
        if (decided.compareAndSet(false, true)) {
            Scheduler.Task task = deadline;
            if (task != null) {
                task.cancel();
            }
            then.accept(outcome, kept == null ? new byte[0] : kept.toByteArray(), failure);
        }
    }
}
