package dev.mailrun.mail.message;

import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.template.RenderedContent;
import dev.mailrun.mail.feedback.MessageTags;
import jakarta.activation.DataHandler;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import jakarta.mail.util.ByteArrayDataSource;
import java.time.Clock;
import java.util.Date;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * The composer as it was written with the mail API's {@code MimeMessage}, kept as the reference
 * {@link CampaignComposer}'s bytes are compared with: same structure, header order, folding and
 * encodings.
 */
final class MimeReferenceComposer {

    static {
        dev.mailrun.mail.StreamProviders.pin();
    }

    private final Clock clock;

    MimeReferenceComposer(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    MimeMessage compose(Session session, MessageFields fields, RenderedContent content)
            throws RejectedMessageException {
        InternetAddress from = Headers.address("From", fields.from());
        Optional<InternetAddress> replyTo = fields.replyTo().isPresent()
                ? Optional.of(Headers.address("Reply-To", fields.replyTo().get()))
                : Optional.empty();
        InternetAddress to = Headers.address("To", fields.to());
        String subject = Headers.subject(content.subject());
        String messageId = Headers.messageId(fields.messageId());
        String listId = Headers.listId(fields.listId(), fields.listName());
        String unsubscribe = Headers.listUnsubscribe(fields.unsubscribeUrl(), fields.unsubscribeMailto());
        try {
            MimeMessage message = new ComposedMessage(session, messageId);
            message.setFrom(from);
            message.setRecipient(MimeMessage.RecipientType.TO, to);
            if (replyTo.isPresent()) {
                message.setReplyTo(new InternetAddress[] {replyTo.get()});
            }
            message.setHeader("Subject", subject);
            message.setSentDate(Date.from(clock.instant()));
            message.setHeader("List-Id", listId);
            message.setHeader("List-Unsubscribe", unsubscribe);
            message.setHeader("List-Unsubscribe-Post", "List-Unsubscribe=One-Click");
            if (fields.sendIds().isPresent()) {
                // The relay's settings, carried by the session, say which provider's metadata it reads.
                for (Map.Entry<String, String> h : MessageTags.of(session.getProperties()).headers(fields.sendIds().get())) {
                    message.setHeader(h.getKey(), h.getValue());
                }
            }
            MimeMultipart alternative = new MimeMultipart("alternative");
            alternative.addBodyPart(part(content.text(), "plain"));
            alternative.addBodyPart(part(content.html(), "html"));
            message.setContent(alternative);
            message.saveChanges();
            return message;
        } catch (MessagingException e) {
            throw new IllegalStateException("building a message from validated values failed: " + e.getMessage(), e);
        }
    }

    static MimeBodyPart part(String body, String subtype) throws MessagingException {
        MimeBodyPart part = new MimeBodyPart();
        // 7bit content goes out as it is, so its line breaks must already be CRLF (a DKIM body hash
        // is computed over exactly these bytes); the encoders normalise line breaks themselves.
        byte[] sevenBit = sevenBitBytes(body);
        if (sevenBit != null) {
            // Handed the bytes, the mail API copies them out in bulk. Handed a String, its text
            // handler encodes it through a stream that writes one byte at a time (a tenth of the
            // sending threads' samples, with the CRLF copy, in a profile). The bytes on the wire are
            // the same: MessageComposerTest compares the two.
            part.setDataHandler(new DataHandler(new ByteArrayDataSource(sevenBit, "text/" + subtype + "; charset=UTF-8")));
            part.setHeader("Content-Transfer-Encoding", SEVEN_BIT);
        } else {
            part.setText(body, "UTF-8", subtype);
            part.setHeader("Content-Transfer-Encoding", eightBitEncoding(body));
        }
        return part;
    }

    private static final String SEVEN_BIT = "7bit";
    /** RFC 5322: a line is at most 998 characters, excluding CRLF. */
    private static final int MAX_LINE = 998;

    /**
     * 7bit when the text is printable ASCII in lines of at most 998 characters: nothing to encode,
     * so nothing to pay per byte on every message (the mail API chooses the same way).
     * Otherwise quoted-printable, which keeps mostly-ASCII text readable in the raw source, or
     * base64, smaller once a third of the text is non-ASCII. Both wrap long lines.
     */
    static String transferEncoding(String body) {
        return sevenBitBytes(body) != null ? SEVEN_BIT : eightBitEncoding(body);
    }

    private static String eightBitEncoding(String body) {
        long nonAscii = body.chars().filter(c -> c > 0x7e || (c < 0x20 && c != '\r' && c != '\n' && c != '\t')).count();
        return nonAscii * 3 > body.length() ? "base64" : "quoted-printable";
    }

    /**
     * The ASCII bytes that go on the wire when the text can go out 7bit, with every line break as
     * CRLF; null when it cannot. One pass for the check and the conversion (rendered templates
     * usually have bare LF).
     */
    static byte[] sevenBitBytes(String body) {
        int n = body.length();
        // A bare CR or LF becomes two bytes; the buffer grows in the rare text with many of them.
        byte[] out = new byte[n + n / 16 + 16];
        int size = 0;
        int line = 0;
        for (int i = 0; i < n; i++) {
            char c = body.charAt(i);
            if (c == '\r' || c == '\n') {
                line = 0;
                if (c == '\r' && i + 1 < n && body.charAt(i + 1) == '\n') {
                    i++;
                }
                if (out.length - size < 2 + (n - i - 1)) {
                    out = java.util.Arrays.copyOf(out, out.length * 2);
                }
                out[size++] = '\r';
                out[size++] = '\n';
            } else if ((c < 0x20 && c != '\t') || c > 0x7e || ++line > MAX_LINE) {
                return null;
            } else {
                out[size++] = (byte) c;
            }
        }
        return size == out.length ? out : java.util.Arrays.copyOf(out, size);
    }
}
