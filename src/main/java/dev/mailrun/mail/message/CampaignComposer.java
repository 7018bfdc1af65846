package dev.mailrun.mail.message;

import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.SerialisedMessage;
import dev.mailrun.mail.feedback.MessageTags;
import dev.mailrun.mail.feedback.SendIds;
import dev.mailrun.mail.template.RenderedContent;
import dev.mailrun.mail.template.SevenBitBody;
import jakarta.mail.Address;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MailDateFormat;
import jakarta.mail.internet.MimeUtility;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Composes the messages of one campaign straight to their wire bytes ({@link SerialisedMessage}).
 * Safe to use from several threads at once.
 *
 * <p>Why: the headers that are the same for every recipient (From, Reply-To, MIME-Version, List-Id,
 * List-Unsubscribe-Post, the operator's own headers) are checked and written to bytes once, here; per recipient only To,
 * Message-ID, Date, Subject, the boundary, List-Unsubscribe, the providers' metadata and, on a test
 * send, {@value #TEST_SEND_HEADER} are checked and written, and the two bodies are appended as they
 * go out. Building a {@code MimeMessage} and writing it spent most of the message's CPU in the mail
 * API's header list, content-type parsing and per-byte streams.
 *
 * <p>The bytes are those the mail API writes for the same message ({@link MessageComposer}'s
 * structure, header order, folding, encodings), apart from the boundary's value:
 * {@code CampaignComposerTest} compares the two.
 */
public final class CampaignComposer {

    /** Written, with the value 1, on a test send ({@link SendIds#isTestSend}) so that filters and people can tell it apart. */
    static final String TEST_SEND_HEADER = "X-Mailrun-Test";

    private static final String BOUNDARY_PREFIX = "----=_Part_";
    private static final String SEVEN_BIT = "7bit";

    private final Clock clock;
    /** Why every message of the campaign is refused (From or Reply-To); null when none is. */
    private final String senderProblem;
    /** Why every message is refused for its List-Id, checked after the recipient's own headers as before. */
    private final String listIdProblem;
    private final Address[] from;
    /** From and Reply-To lines: they stand between the Date and To lines. */
    private final byte[] senderLines;
    /** MIME-Version, then the start of the Content-Type line up to the boundary's value: without, or with an own file. */
    private final byte[] mimeLines;
    private final byte[] mimeLinesWithOwn;
    /** Files every message carries, encoded once; with any, the message is multipart/mixed. */
    private final AttachedFiles files;
    private final byte[] listIdLine;
    private final byte[] unsubscribePostLine;
    /** The operator's own headers ({@link AddedHeaders}), after List-Unsubscribe-Post. */
    private final byte[] addedLines;
    /** Why every message is refused for the operator's headers; null when none is. */
    private final String addedProblem;
    private final AtomicLong parts = new AtomicLong();
    private final String boundarySuffix;
    private volatile FormattedDate lastDate = new FormattedDate(Long.MIN_VALUE, "");

    CampaignComposer(Clock clock, Mailbox from, Optional<Mailbox> replyTo, String listId, String listName,
                     List<AttachmentPart> attachments, List<Map.Entry<String, String>> added) {
        this.clock = clock;
        this.files = new AttachedFiles(attachments);
        String problem = null;
        InternetAddress fromAddress = null;
        WireBuffer sender = new WireBuffer(256);
        try {
            fromAddress = Headers.address("From", from);
            Optional<InternetAddress> replyToAddress = replyTo.isPresent()
                    ? Optional.of(Headers.address("Reply-To", replyTo.get()))
                    : Optional.empty();
            sender.header("From", addressValue("From", fromAddress));
            if (replyToAddress.isPresent()) {
                sender.header("Reply-To", addressValue("Reply-To", replyToAddress.get()));
            }
        } catch (RejectedMessageException e) {
            problem = e.getMessage();
        }
        this.senderProblem = problem;
        this.from = fromAddress == null ? null : new Address[] {fromAddress};
        this.senderLines = bytes(sender);
        WireBuffer list = new WireBuffer(256);
        problem = null;
        try {
            list.header("List-Id", Headers.listId(listId, listName));
        } catch (RejectedMessageException e) {
            problem = e.getMessage();
        }
        this.listIdProblem = problem;
        this.listIdLine = bytes(list);
        this.mimeLines = bytes(new WireBuffer(64).header("MIME-Version", "1.0").text("Content-Type: ").text(files.topType(false)));
        this.mimeLinesWithOwn = bytes(new WireBuffer(64).header("MIME-Version", "1.0").text("Content-Type: ")
                .text(files.topType(true)));
        this.unsubscribePostLine = bytes(new WireBuffer(64).header("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"));
        // Checked again here: the campaign was checked when created, but the rule may have changed since.
        this.addedProblem = AddedHeaders.problem(added).map(AddedHeaders.Refusal::sentence).orElse(null);
        WireBuffer addedOut = new WireBuffer(256);
        if (addedProblem == null) {
            AddedHeaders.write(addedOut, added);
        }
        this.addedLines = bytes(addedOut);
        // Unique enough that no text contains it by chance, as the mail API's own boundaries are.
        this.boundarySuffix = "_" + System.identityHashCode(this) + "." + clock.millis();
    }

    /**
     * The message to one recipient, as the bytes that go on the wire.
     *
     * @param session carries the relay's settings, which say which providers' metadata to write
     * @throws RejectedMessageException when a header value is not allowed; the reason names the header
     */
    public SerialisedMessage compose(Session session, RecipientFields fields, RenderedContent content)
            throws RejectedMessageException {
        return compose(session, fields, content, Optional.empty());
    }

    /** As {@link #compose(Session, RecipientFields, RenderedContent)}, carrying {@code own}, the recipient's own file, last. */
    public SerialisedMessage compose(Session session, RecipientFields fields, RenderedContent content,
                                     Optional<AttachmentPart> own) throws RejectedMessageException {
        String text = content.text();
        String html = content.html();
        return compose(session, fields, content.subject(), (text.length() + html.length()) * 17 / 16, own, (out, boundary) -> {
            part(out, boundary, text, "plain");
            part(out, boundary, html, "html");
        });
    }

    /**
     * The message to one recipient whose bodies were rendered straight to 7bit
     * ({@code CompiledTemplate.renderSevenBit}): the same bytes {@link #compose(Session,
     * RecipientFields, RenderedContent)} writes for the same text, with the bodies copied as they are.
     */
    public SerialisedMessage compose(Session session, RecipientFields fields, String subject, SevenBitBody text,
                                     SevenBitBody html) throws RejectedMessageException {
        return compose(session, fields, subject, text, html, Optional.empty());
    }

    /** As {@link #compose(Session, RecipientFields, String, SevenBitBody, SevenBitBody)}, carrying {@code own} last. */
    public SerialisedMessage compose(Session session, RecipientFields fields, String subject, SevenBitBody text,
                                     SevenBitBody html, Optional<AttachmentPart> own) throws RejectedMessageException {
        return compose(session, fields, subject, text.length() + html.length(), own, (out, boundary) -> {
            sevenBitPart(out, boundary, text, "plain");
            sevenBitPart(out, boundary, html, "html");
        });
    }

    /** Writes the two body parts of one message, after its headers. */
    private interface Bodies {
        void write(WireBuffer out, String boundary);
    }

    private SerialisedMessage compose(Session session, RecipientFields fields, String subjectText, int bodiesSize,
                                      Optional<AttachmentPart> own, Bodies bodies) throws RejectedMessageException {
        if (senderProblem != null) {
            throw new RejectedMessageException(senderProblem);
        }
        InternetAddress to = Headers.address("To", fields.to());
        String subject = Headers.subject(subjectText);
        String messageId = Headers.messageId(fields.messageId());
        if (listIdProblem != null) {
            throw new RejectedMessageException(listIdProblem);
        }
        if (addedProblem != null) {
            throw new RejectedMessageException(addedProblem);
        }
        String unsubscribe = Headers.listUnsubscribe(fields.unsubscribeUrl(), fields.unsubscribeMailto());
        long part = parts.getAndAdd(files.boundaries(own.isPresent()));
        String boundary = BOUNDARY_PREFIX + part + boundarySuffix;

        WireBuffer out = new WireBuffer(1024 + senderLines.length + listIdLine.length + addedLines.length + bodiesSize + files.size()
                + own.map(AttachmentPart::size).orElse(0));
        out.header("Date", date());
        out.bytes(senderLines);
        out.header("To", addressValue("To", to));
        out.header("Message-ID", messageId);
        out.header("Subject", subject);
        out.bytes(own.isPresent() ? mimeLinesWithOwn : mimeLines);
        out.text(boundary).text("\"").crlf();
        out.bytes(listIdLine);
        out.header("List-Unsubscribe", unsubscribe);
        out.bytes(unsubscribePostLine);
        out.bytes(addedLines);
        if (fields.sendIds().map(SendIds::isTestSend).orElse(false)) {
            out.header(TEST_SEND_HEADER, "1");
        }
        if (fields.sendIds().isPresent()) {
            // The relay's settings, carried by the session, say which provider's metadata it reads.
            for (Map.Entry<String, String> h : MessageTags.of(session.getProperties()).headers(fields.sendIds().get())) {
                out.header(h.getKey(), h.getValue());
            }
        }
        out.crlf();
        // The outer boundary is the header's; the nested levels' follow it in the sequence.
        files.writeBody(out, level -> level == 0 ? boundary : BOUNDARY_PREFIX + (part + level) + boundarySuffix, own,
                alternative -> writeAlternative(out, alternative, bodies));
        return new SerialisedMessage(session, out.buffer(), out.size(), from.clone(), new Address[] {to},
                messageId, subjectText.strip());
    }

    /** The two bodies between the delimiters of {@code boundary}. */
    private static void writeAlternative(WireBuffer out, String boundary, Bodies bodies) {
        bodies.write(out, boundary);
        out.text("--").text(boundary).text("--").crlf();
    }

    /** A body part whose text is already in its 7bit form, as {@link #part} writes one that can go so. */
    private static void sevenBitPart(WireBuffer out, String boundary, SevenBitBody body, String subtype) {
        partStart(out, boundary, subtype);
        out.header("Content-Transfer-Encoding", SEVEN_BIT).crlf();
        out.write(body.bytes(), 0, body.length());
        out.crlf();
    }

    /** One body part: delimiter, its two headers, a blank line, the text, CRLF (before the next delimiter). */
    private static void part(WireBuffer out, String boundary, String body, String subtype) {
        partStart(out, boundary, subtype);
        byte[] utf8 = WireBuffer.utf8(body);
        int headerEnd = out.size();
        // Written as 7bit first; sevenBit() takes nothing back when the text cannot go so.
        out.header("Content-Transfer-Encoding", SEVEN_BIT).crlf();
        if (!out.sevenBit(body, utf8)) {
            out.truncate(headerEnd);
            String encoding = MessageComposer.eightBitEncoding(body);
            out.header("Content-Transfer-Encoding", encoding).crlf();
            encode(out, encoding, utf8);
        }
        out.crlf();
    }

    /** A body part's delimiter and its Content-Type line. */
    private static void partStart(WireBuffer out, String boundary, String subtype) {
        out.text("--").text(boundary).crlf();
        out.text("Content-Type: text/").text(subtype).text("; charset=UTF-8").crlf();
    }

    /** Quoted-printable or base64, through the mail API's own encoders (as its text handler writes). */
    private static void encode(WireBuffer out, String encoding, byte[] utf8) {
        try {
            OutputStream encoder = MimeUtility.encode(out, encoding);
            encoder.write(utf8);
            encoder.flush();
        } catch (MessagingException e) {
            throw new IllegalStateException("no encoder for " + encoding, e);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
    }

    /** As the mail API writes an address header: folded after the header name. */
    private static String addressValue(String header, InternetAddress address) {
        return InternetAddress.toString(new Address[] {address}, header.length() + 2);
    }

    /**
     * The Date header for now, formatted as the mail API formats it; formatted once per second,
     * since many messages share one.
     */
    private String date() {
        long millis = clock.millis();
        long second = Math.floorDiv(millis, 1000L);
        FormattedDate last = lastDate;
        if (last.second() == second) {
            return last.text();
        }
        // MailDateFormat is not thread-safe: a new one for each second's text, read by every thread.
        String text = new MailDateFormat().format(new Date(second * 1000L));
        lastDate = new FormattedDate(second, text);
        return text;
    }

    private record FormattedDate(long second, String text) {}

    private static byte[] bytes(WireBuffer buffer) {
        return java.util.Arrays.copyOf(buffer.buffer(), buffer.size());
    }
}
