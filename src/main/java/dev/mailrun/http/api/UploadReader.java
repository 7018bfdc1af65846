package dev.mailrun.http.api;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * Streams an upload's body into a temporary file as it arrives, hashing it on the way (the hash is
 * what an idempotency key's request is compared by), at most {@code maxBytes}. Like the server's
 * other body readers it never waits on a thread: with no bytes there it asks Jetty to call back.
 * The body is never held in memory; the importer then reads the file as it reads any CSV file.
 * A stalled client is cut off by the connection's idle timeout.
 */
final class UploadReader implements Runnable {

    /** How an upload ended. */
    enum Outcome { COMPLETE, TOO_LARGE, BROKEN }

    @FunctionalInterface
    interface Done {
        /** @param file the body (deleted by the reader unless COMPLETE); sha256 of it when COMPLETE */
        void accept(Outcome outcome, Path file, byte[] sha256, Throwable failure);
    }

    private final Request request;
    private final long maxBytes;
    private final Path file;
    private final FileChannel channel;
    private final MessageDigest digest;
    private final Done then;
    private final AtomicBoolean decided = new AtomicBoolean();
    private long received;

    private UploadReader(Request request, long maxBytes, Path file, FileChannel channel, Done then) {
        this.request = request;
        this.maxBytes = maxBytes;
        this.file = file;
        this.channel = channel;
        this.then = then;
        try {
            this.digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    static void read(Request request, long maxBytes, Done then) throws IOException {
        Path file = Files.createTempFile("mailrun-upload-", ".csv");
        FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        UploadReader reader = new UploadReader(request, maxBytes, file, channel, then);
        if (request.getLength() > maxBytes) {
            reader.decide(Outcome.TOO_LARGE, null);
            return;
        }
        reader.run();
    }

    @Override
    public void run() {
        while (!decided.get()) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                request.demand(this);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                decide(Outcome.BROKEN, chunk.getFailure());
                return;
            }
            received += chunk.remaining();
            boolean last = chunk.isLast();
            if (received <= maxBytes) {
                try {
                    ByteBuffer buffer = chunk.getByteBuffer();
                    digest.update(buffer.duplicate());
                    while (buffer.hasRemaining()) {
                        channel.write(buffer);
                    }
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

    private void decide(Outcome outcome, Throwable failure) {
        if (!decided.compareAndSet(false, true)) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            if (outcome == Outcome.COMPLETE) {
                outcome = Outcome.BROKEN;
                failure = e;
            }
        }
        if (outcome != Outcome.COMPLETE) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a temporary file: the system cleans it up
            }
        }
        then.accept(outcome, file, outcome == Outcome.COMPLETE ? digest.digest() : null, failure);
    }
}
