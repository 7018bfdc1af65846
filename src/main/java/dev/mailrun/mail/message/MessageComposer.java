package dev.mailrun.mail.message;

import dev.mailrun.mail.HeaderValues;
import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.template.RenderedContent;
import jakarta.activation.DataHandler;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import jakarta.mail.internet.MimeUtility;
import jakarta.mail.util.ByteArrayDataSource;
import java.io.UnsupportedEncodingException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.util.Date;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * Builds the MIME message for one recipient and refuses any header value that could inject a
 * header: every value is checked before anything is set.
 *
 * <p>Structure: {@code multipart/alternative} with text/plain first and text/html last (clients
 * show the last part they understand), both UTF-8 and quoted-printable or base64, so no line on
 * the wire exceeds 998 octets whatever the template's line lengths.
 */
public final class MessageComposer {

    static {
        dev.mailrun.mail.StreamProviders.pin();
    }


    private static final Pattern MESSAGE_ID = Pattern.compile("<[^<>\\s@\"]+@[^<>\\s@\"]+>");
    private static final Pattern LIST_ID = Pattern.compile("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)+");
    /** Characters that would end or split an entry of List-Unsubscribe's {@code <uri>, <uri>} list. */
    private static final Pattern URI_BREAKERS = Pattern.compile("[\\s<>,\"]");
    /** Leaves room for the header name and the second URI within one 998-octet line. */
    private static final int MAX_URI_LENGTH = 900;

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

    public MimeMessage compose(Session session, MessageFields fields, RenderedContent content)
            throws RejectedMessageException {
        InternetAddress from = address("From", fields.from());
        Optional<InternetAddress> replyTo = fields.replyTo().isPresent()
                ? Optional.of(address("Reply-To", fields.replyTo().get()))
                : Optional.empty();
        InternetAddress to = address("To", fields.to());
        String subject = checked("Subject", content.subject());
        String messageId = checked("Message-ID", fields.messageId());
        if (!MESSAGE_ID.matcher(messageId).matches()) {
            throw new RejectedMessageException("Message-ID: '" + messageId + "' is not of the form <local@domain>");
        }
        String listId = listId(fields.listId(), fields.listName());
        String unsubscribe = "<" + unsubscribeUrl(fields.unsubscribeUrl()) + ">, <"
                + unsubscribeMailto(fields.unsubscribeMailto()) + ">";
        try {
            MimeMessage message = new ComposedMessage(session, messageId);
            message.setFrom(from);
            message.setRecipient(MimeMessage.RecipientType.TO, to);
            if (replyTo.isPresent()) {
                message.setReplyTo(new InternetAddress[] {replyTo.get()});
            }
            message.setSubject(subject, "UTF-8");
            message.setSentDate(Date.from(clock.instant()));
            message.setHeader("List-Id", MimeUtility.fold("List-Id: ".length(), listId));
            message.setHeader("List-Unsubscribe", MimeUtility.fold("List-Unsubscribe: ".length(), unsubscribe));
            message.setHeader("List-Unsubscribe-Post", "List-Unsubscribe=One-Click");
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

    private static String checked(String header, String value) throws RejectedMessageException {
        Optional<String> problem = HeaderValues.check(header, value);
        if (problem.isPresent()) {
            throw new RejectedMessageException(problem.get());
        }
        return value;
    }

    private static InternetAddress address(String header, Mailbox mailbox) throws RejectedMessageException {
        String address = checked(header, mailbox.address()).strip();
        String displayName = checked(header + " display name", mailbox.displayName()).strip();
        try {
            InternetAddress parsed = new InternetAddress(address, true);
            parsed.validate();
            if (parsed.getPersonal() != null || !parsed.getAddress().equals(address)) {
                throw new RejectedMessageException(header + ": '" + address + "' must be a bare address like user@example.com");
            }
            return displayName.isEmpty() ? parsed : new InternetAddress(address, displayName, "UTF-8");
        } catch (AddressException e) {
            throw new RejectedMessageException(header + ": '" + address + "' is not a valid address (" + e.getMessage() + ")");
        } catch (UnsupportedEncodingException e) {
            throw new IllegalStateException("UTF-8 is always supported", e);
        }
    }

    private static String listId(String id, String name) throws RejectedMessageException {
        checked("List-Id", id);
        checked("List-Id", name);
        if (!LIST_ID.matcher(id).matches() || id.length() > 255) {
            throw new RejectedMessageException("List-Id: '" + id + "' must be a dotted identifier like c12.lists.example.com");
        }
        if (name.isBlank()) {
            return "<" + id + ">";
        }
        return phrase(name.strip()) + " <" + id + ">";
    }

    /** A List-Id description: a quoted string when ASCII, an RFC 2047 encoded word otherwise. */
    private static String phrase(String name) {
        if (name.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
            return "\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        }
        try {
            return MimeUtility.encodeWord(name, "UTF-8", "Q");
        } catch (UnsupportedEncodingException e) {
            throw new IllegalStateException("UTF-8 is always supported", e);
        }
    }

    private static String unsubscribeUrl(String url) throws RejectedMessageException {
        checkUri("List-Unsubscribe", url);
        try {
            URI uri = new URI(url);
            // Plain http only for a loopback endpoint (the demo, local tests); anything reachable from
            // a mailbox provider must be https.
            boolean loopbackHttp = "http".equalsIgnoreCase(uri.getScheme())
                    && ("127.0.0.1".equals(uri.getHost()) || "localhost".equalsIgnoreCase(String.valueOf(uri.getHost())));
            if (!("https".equalsIgnoreCase(uri.getScheme()) || loopbackHttp) || uri.getHost() == null) {
                throw new RejectedMessageException("List-Unsubscribe: one-click unsubscribe needs an https URL with a host, got '" + url + "'");
            }
        } catch (URISyntaxException e) {
            throw new RejectedMessageException("List-Unsubscribe: '" + url + "' is not a valid URL (" + e.getReason() + ")");
        }
        return url;
    }

    private static String unsubscribeMailto(String mailto) throws RejectedMessageException {
        checkUri("List-Unsubscribe", mailto);
        if (!mailto.regionMatches(true, 0, "mailto:", 0, 7) || mailto.indexOf('@') < 0) {
            throw new RejectedMessageException("List-Unsubscribe: '" + mailto + "' must be a mailto: URI with an address");
        }
        return mailto;
    }

    private static void checkUri(String header, String uri) throws RejectedMessageException {
        checked(header, uri);
        if (URI_BREAKERS.matcher(uri).find()) {
            throw new RejectedMessageException(header + ": '" + uri + "' contains a space, quote, comma or angle bracket; percent-encode them");
        }
        if (uri.length() > MAX_URI_LENGTH) {
            throw new RejectedMessageException(header + ": URI longer than " + MAX_URI_LENGTH + " characters");
        }
    }
}
