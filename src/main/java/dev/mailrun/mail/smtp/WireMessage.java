package dev.mailrun.mail.smtp;

import dev.mailrun.mail.SerialisedMessage;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Serialises a built message once, in memory, and returns a message backed by those bytes.
 *
 * <p>Why: a built message is encoded while it is written. The quoted-printable and base64 encoders
 * write one byte at a time, and on the SMTP data stream every byte then crosses the transport's
 * dot-stuffing stream and a synchronized buffered stream — measured at over half of all CPU
 * samples of the sending threads. Encoding into an unsynchronized buffer instead, then sending a
 * message that writes those bytes out unchanged in one piece, keeps the wire output identical and
 * the per-byte work cheap. A DKIM-signed message is signed here, once, for the same reason.
 *
 * <p>A message the composer already made as its bytes ({@link SerialisedMessage}) is returned
 * as it is.
 *
 * <p>The returned message is not parsed back from the bytes: it answers only what the transport
 * and the pool ask of it (sender, recipients, Message-ID, subject), copied from the built message.
 * Parsing the headers back read the buffer one byte at a time through a synchronized stream, and
 * writing them out again went line by line; the parse alone was 8% of the sending threads'
 * samples (commit b507f5c).
 */
final class WireMessage {

    /** Room for a typical message of a few kilobytes; the buffer grows for larger ones. */
    private static final int INITIAL_CAPACITY = 16 * 1024;

    private WireMessage() {}

    /**
     * @throws MessagingException when the message cannot be written (e.g. DKIM signing failed)
     */
    static MimeMessage of(Session session, MimeMessage built) throws MessagingException {
        if (built instanceof SerialisedMessage ready) {
            return ready; // composed straight to its bytes: writing it again would only copy them
        }
        Bytes bytes = new Bytes(INITIAL_CAPACITY);
        try {
            built.writeTo(bytes);
        } catch (IOException e) {
            throw new MessagingException("writing the message failed: " + e.getMessage(), e);
        }
        return new SerialisedMessage(session, bytes.buffer(), bytes.size(), built.getFrom(), built.getAllRecipients(),
                built.getMessageID(), built.getSubject());
    }

    /** A growable byte buffer without the locking of {@link java.io.ByteArrayOutputStream}. */
    static final class Bytes extends OutputStream {
        private byte[] buffer;
        private int size;

        Bytes(int capacity) {
            buffer = new byte[capacity];
        }

        @Override
        public void write(int b) {
            if (size == buffer.length) {
                grow(1);
            }
            buffer[size++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            if (len > buffer.length - size) {
                grow(len);
            }
            System.arraycopy(b, off, buffer, size, len);
            size += len;
        }

        private void grow(int needed) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + needed));
        }

        byte[] buffer() {
            return buffer;
        }

        int size() {
            return size;
        }
    }
}
