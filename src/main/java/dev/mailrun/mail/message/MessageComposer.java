package dev.mailrun.mail.message;

import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.SerialisedMessage;
import dev.mailrun.mail.template.RenderedContent;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * Builds the MIME message for one recipient and refuses any header value that could inject a
 * header: every value is checked ({@link Headers}) before anything is written.
 *
 * <p>Structure: {@code multipart/alternative} with text/plain first and text/html last (clients
 * show the last part they understand) — inside {@code multipart/mixed}, before the files, when the
 * campaign has attachments ({@link AttachmentPart}) — both UTF-8 and 7bit, quoted-printable or base64, so no line
 * on the wire exceeds 998 octets whatever the template's line lengths. Header text is folded, or
 * encoded when it must be ({@link HeaderText}), so no header line does either.
 *
 * <p>The sending path composes through {@link #forCampaign}, which writes each message straight to
 * its bytes; {@link #compose} gives the same message as a full {@code MimeMessage}, for callers
 * that read its parts.
 */
public final class MessageComposer {

    static {
        dev.mailrun.mail.StreamProviders.pin();
    }

    private static final String SEVEN_BIT = "7bit";

    private final Clock clock;

    public MessageComposer(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * A Session for building messages that never resolves the local host name: {@code mail.host}
     * and {@code mail.smtp.localhost} are set, and Message-IDs come from the caller.
     */
    public static Session newSession(String localHostName) {
        Properties properties = new Properties();
        properties.setProperty("mail.host", localHostName);
        properties.setProperty("mail.smtp.localhost", localHostName);
        return Session.getInstance(properties);
    }

    /**
     * A composer for the messages of one campaign, with the headers every one of them shares
     * checked and written once. A value that is not allowed rejects each message composed with it,
     * as {@link #compose} would.
     *
     * @param listId   the list identifier, e.g. {@code c12.lists.example.com}
     * @param listName the human-readable List-Id phrase, e.g. the campaign name; may be empty
     */
    public CampaignComposer forCampaign(Mailbox from, Optional<Mailbox> replyTo, String listId, String listName) {
        return forCampaign(from, replyTo, listId, listName, List.of());
    }

    /**
     * As {@link #forCampaign(Mailbox, Optional, String, String)}, for messages that carry
     * {@code attachments}: {@code multipart/mixed}, the alternative bodies first, then the files in order.
     */
    public CampaignComposer forCampaign(Mailbox from, Optional<Mailbox> replyTo, String listId, String listName,
                                        List<AttachmentPart> attachments) {
        return forCampaign(from, replyTo, listId, listName, attachments, List.of());
    }

    /**
     * As {@link #forCampaign(Mailbox, Optional, String, String, List)}, for messages that also carry
     * the operator's own {@code headers} (name, value; {@link AddedHeaders}), written once here after
     * List-Unsubscribe-Post. Headers {@link AddedHeaders} refuses reject every message, naming the first.
     */
    public CampaignComposer forCampaign(Mailbox from, Optional<Mailbox> replyTo, String listId, String listName,
                                        List<AttachmentPart> attachments, List<Map.Entry<String, String>> headers) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(replyTo, "replyTo");
        Objects.requireNonNull(listId, "listId");
        Objects.requireNonNull(listName, "listName");
        return new CampaignComposer(clock, from, replyTo, listId, listName, attachments, List.copyOf(headers));
    }

    /** The message as a full {@code MimeMessage}, parsed from the bytes {@link #forCampaign} writes. */
    public MimeMessage compose(Session session, MessageFields fields, RenderedContent content)
            throws RejectedMessageException {
        SerialisedMessage wire = forCampaign(fields.from(), fields.replyTo(), fields.listId(), fields.listName())
                .compose(session, fields.recipient(), content);
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(wire.getSize());
            wire.writeTo(bytes);
            return new ComposedMessage(session, new ByteArrayInputStream(bytes.toByteArray()), wire.getMessageID());
        } catch (MessagingException e) {
            throw new IllegalStateException("reading back a composed message failed: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
    }

    /**
     * 7bit when the text is printable ASCII in lines of at most 998 characters: nothing to encode,
     * so nothing to pay per byte on every message (the mail API chooses the same way).
     * Otherwise quoted-printable, which keeps mostly-ASCII text readable in the raw source, or
     * base64, smaller once a third of the text is non-ASCII. Both wrap long lines.
     */
    static String transferEncoding(String body) {
        return sevenBitBytes(body) != null ? SEVEN_BIT : eightBitEncoding(body);
    }

    /** Quoted-printable or base64 for text that cannot go out 7bit (see {@link #transferEncoding}). */
    static String eightBitEncoding(String body) {
        long nonAscii = body.chars().filter(c -> c > 0x7e || (c < 0x20 && c != '\r' && c != '\n' && c != '\t')).count();
        return nonAscii * 3 > body.length() ? "base64" : "quoted-printable";
    }

    /**
     * The ASCII bytes that go on the wire when the text can go out 7bit, with every line break as
     * CRLF; null when it cannot.
     */
    static byte[] sevenBitBytes(String body) {
        WireBuffer out = new WireBuffer(body.length() + 16);
        return out.sevenBit(body, WireBuffer.utf8(body)) ? Arrays.copyOf(out.buffer(), out.size()) : null;
    }
}
