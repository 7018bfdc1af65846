package dev.mailrun.mail;

import jakarta.mail.Address;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * A message that is its bytes, exactly as they go on the wire, plus the few facts the transport
 * and the pool ask of it (sender, recipients, Message-ID, subject).
 *
 * <p>Why: the mail API encodes a message while it writes it, with per-byte encoder streams and a
 * header list it re-parses as it goes. A message that is already its bytes is written in one piece,
 * and a pool that is handed one sends it as it is, without writing it again first.
 *
 * <p>It is not parsed from the bytes, so the mail API's accessors beyond those overridden here
 * (content, other headers) see an empty message. {@code writeTo} ignores the transport's list of
 * headers to leave out ({@code Bcc}, {@code Content-Length}): the composer never writes either, and
 * a DKIM signature covers the headers as they are.
 */
public final class SerialisedMessage extends MimeMessage {

    private final byte[] bytes;
    private final int size;
    private final Address[] from;
    private final Address[] recipients;
    private final String messageId;
    private final String subject;

    /**
     * @param bytes the message, of which the first {@code size} bytes are used and which the caller
     *              no longer changes
     */
    public SerialisedMessage(Session session, byte[] bytes, int size, Address[] from, Address[] recipients,
                             String messageId, String subject) {
        super(session);
        Objects.checkFromIndexSize(0, size, bytes.length);
        this.bytes = bytes;
        this.size = size;
        this.from = from;
        this.recipients = recipients;
        this.messageId = messageId;
        this.subject = subject;
    }

    @Override
    public void writeTo(OutputStream os) throws IOException {
        os.write(bytes, 0, size);
    }

    @Override
    public void writeTo(OutputStream os, String[] ignoreList) throws IOException {
        os.write(bytes, 0, size);
    }

    @Override
    public int getSize() {
        return size;
    }

    @Override
    public Address[] getFrom() {
        return from == null ? null : from.clone();
    }

    @Override
    public Address[] getAllRecipients() {
        return recipients == null ? null : recipients.clone();
    }

    @Override
    public String getMessageID() {
        return messageId;
    }

    @Override
    public String getSubject() {
        return subject;
    }

    /** The bytes are the message: nothing to bring up to date. */
    @Override
    public void saveChanges() {}
}
