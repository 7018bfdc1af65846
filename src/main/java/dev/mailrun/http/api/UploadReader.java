package dev.mailrun.http.api;

import dev.mailrun.http.server.BodyChunks;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.eclipse.jetty.server.Request;

/**
 * Streams an upload's body into a temporary file as it arrives, hashing it on the way (the hash is
 * what an idempotency key's request is compared by), at most {@code maxBytes}. Like the server's
 * other body readers it never waits on a thread ({@link BodyChunks}). The body is never held in
 * memory; the importer then reads the file as it reads any CSV file. A stalled client is cut off by
 * the connection's idle timeout (TIMED_OUT).
 */
final class UploadReader extends BodyChunks {

    @FunctionalInterface
    interface Done {
        /** @param file the body (deleted by the reader unless COMPLETE); sha256 of it when COMPLETE */
        void accept(Outcome outcome, Path file, byte[] sha256, Throwable failure);
    }

    private final Path file;
    private final FileChannel channel;
    private final MessageDigest digest;
    private final Done then;

    private UploadReader(Request request, long maxBytes, Path file, FileChannel channel, Done then) {
        super(request, maxBytes);
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
        new UploadReader(request, maxBytes, file, channel, then).start();
    }

    @Override
    protected void take(ByteBuffer buffer) throws IOException {
        digest.update(buffer.duplicate());
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    @Override
    protected void finish(Outcome outcome, Throwable failure) {
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
