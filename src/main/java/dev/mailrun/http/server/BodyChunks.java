package dev.mailrun.http.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * Reads a request body chunk by chunk, at most {@code maxBytes} of it, and ends exactly once. It
 * never waits on a thread: when no bytes are there it asks Jetty to call it back, so a client
 * trickling its body holds a socket, not a thread. What becomes of the bytes is the subclass's
 * ({@link #take}); how it ended is told to {@link #finish} once, whichever of the last byte, a body
 * grown too large, the deadline or a broken connection comes first.
 */
public abstract class BodyChunks implements Runnable {

    /** How reading a body ended. */
    public enum Outcome { COMPLETE, TOO_LARGE, TIMED_OUT, BROKEN }

    private final Request request;
    private final long maxBytes;
    private final AtomicBoolean decided = new AtomicBoolean();
    private long received;

    protected BodyChunks(Request request, long maxBytes) {
        this.request = request;
        this.maxBytes = maxBytes;
    }

    /** Reads what has arrived; at once TOO_LARGE when the Content-Length says so. */
    protected final void start() {
        if (request.getLength() > maxBytes) {
            decide(Outcome.TOO_LARGE, null);
            return;
        }
        run();
    }

    /** Reads what has arrived, then asks to be run again when more does. */
    @Override
    public final void run() {
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
            if (received <= maxBytes) {
                try {
                    take(chunk.getByteBuffer());
                } catch (IOException e) {
                    chunk.release();
                    decide(Outcome.BROKEN, e);
                    return;
                }
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

    /** Ends reading with {@code outcome}, unless it already ended; {@link #finish} runs once. */
    protected final void decide(Outcome outcome, Throwable failure) {
        if (decided.compareAndSet(false, true)) {
            finish(outcome, failure);
        }
    }

    /** Takes the bytes of one chunk (within the limit); the buffer is released afterwards. */
    protected abstract void take(ByteBuffer bytes) throws IOException;

    /** How reading ended: called once, on a Jetty thread or the caller's. */
    protected abstract void finish(Outcome outcome, Throwable failure);

    protected final Request request() {
        return request;
    }
}
