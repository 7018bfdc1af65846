package dev.mailrun.mail.smtp;

import jakarta.mail.Address;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Provider;
import jakarta.mail.Session;
import jakarta.mail.URLName;
import jakarta.mail.internet.InternetAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.eclipse.angus.mail.smtp.SMTPMessage;
import org.eclipse.angus.mail.smtp.SMTPTransport;

/**
 * The SMTP transport, telling its sender the moment a message's {@code MAIL FROM} is about to go on
 * the wire, and writing a message's envelope in one round trip where the relay allows it.
 *
 * <p><b>The stamp.</b> {@code MAIL FROM} is what a relay counts, and what the send windows count a
 * message from ({@code SendRateLimiter.leaving}). Between the permit and that moment the transport
 * still does a little work for each message (its checks, reading the subject for its listeners), and
 * now and then the thread loses its core there; a message counted before it would reach the relay
 * that much later than its window assumed, in the same second as the next ⌈rate⌉ punctual ones.
 *
 * <p><b>Pipelining (RFC 2920).</b> The mail API waits for each reply before the next command: MAIL
 * FROM, RCPT TO, DATA and the body are four round trips. Against a relay that lists {@code PIPELINING}
 * in its EHLO answer, the {@code MAIL FROM} of a message to one recipient is written together with its
 * {@code RCPT TO} and {@code DATA} (with {@code BDAT} chunking, the body's first chunk goes after the
 * envelope's replies instead of DATA): two round trips a message. A relay 80 ms away then takes about
 * 160 ms a message instead of 320, so half the connections carry the rate and a run keeps half the
 * time free before its deadline. The mail API still reads every reply in order and decides on each as
 * it always does: when it asks to write a command that was already written, that write is skipped;
 * when it asks for one that was not (the RSET after a refusal), the replies still owed to the
 * commands written ahead are read first, so the stream never falls out of step. A relay that accepts
 * DATA after refusing the envelope (RFC 2920 says it must not) would take whatever came next as the
 * message: the socket is closed before any final dot instead, the refusal is still what the send
 * reports, and the connection opens a new session for its next message ({@link #ended}).
 *
 * <p>Public, with the constructor the mail API calls: the session builds it by reflection from
 * {@link #PROVIDER}.
 */
public final class StampedTransport extends SMTPTransport {

    /** The provider that has a session build this transport for {@code smtp}. */
    static final Provider PROVIDER = new Provider(Provider.Type.TRANSPORT, "smtp", StampedTransport.class.getName(),
            "mailrun", null);

    private static final Runnable NOTHING = () -> { };

    private Runnable beforeMailFrom = NOTHING;
    /** The recipients of the message being sent; null between messages and when its envelope is not written ahead. */
    private Address[] recipients;
    /** Commands written ahead of the mail API, in order, whose replies it has not read yet. */
    private final Deque<String> writtenAhead = new ArrayDeque<>();
    /**
     * The session was dropped here (the relay ended it with replies still owed, or accepted DATA after
     * a refusal): nothing more is written or read, so the mail API, which writes RSET after a refusal
     * and reads its reply, reports the refusal the relay gave (a 421, say) rather than the broken pipe
     * or reset that comes of writing into a session the relay closed with our commands unread.
     */
    private boolean dropped;
    /** Closed by the mail API itself or dropped here, while its connection still holds it. */
    private boolean ended;

    public StampedTransport(Session session, URLName urlname) {
        super(session, urlname);
    }

    /** Runs {@code stamp} right before the next message's {@code MAIL FROM} is written, once. */
    synchronized void beforeMailFrom(Runnable stamp) {
        beforeMailFrom = stamp;
    }

    /**
     * True once the session was ended from inside a send: the mail API closes it when RSET fails after
     * a refusal, and a relay out of step is dropped. The refusal is still what the send reports, so
     * the connection learns here that it must open a new session for its next message.
     */
    synchronized boolean ended() {
        return ended;
    }

    @Override
    public synchronized void close() throws MessagingException {
        ended = true;
        super.close();
    }

    @Override
    public synchronized void sendMessage(Message message, Address[] addresses) throws MessagingException {
        // A message asking for delivery notifications has its RCPT TO worded by the mail API (NOTIFY=…).
        boolean notify = message instanceof SMTPMessage smtp && smtp.getNotifyOptions() != 0
                || session.getProperty("mail.smtp.dsn.notify") != null;
        recipients = notify ? null : addresses;
        try {
            super.sendMessage(message, addresses);
        } finally {
            recipients = null;
            if (!writtenAhead.isEmpty()) {
                // Replies the mail API never asked for: the stream is out of step, and only a new connection is safe.
                drop();
            }
        }
    }

    @Override
    protected synchronized boolean protocolConnect(String host, int port, String user, String password)
            throws MessagingException {
        dropped = false;
        ended = false;
        writtenAhead.clear();
        return super.protocolConnect(host, port, user, password);
    }

    @Override
    protected synchronized void mailFrom() throws MessagingException {
        Runnable stamp = beforeMailFrom;
        beforeMailFrom = NOTHING;
        stamp.run();
        super.mailFrom();
    }

    @Override
    protected void sendCommand(String cmd) throws MessagingException {
        if (dropped) {
            return;
        }
        if (!writtenAhead.isEmpty()) {
            if (writtenAhead.peekFirst().equals(cmd)) {
                writtenAhead.removeFirst();
                return;
            }
            readRepliesOwed();
            if (dropped) {
                return;
            }
        }
        List<String> group = cmd.startsWith("MAIL FROM:") ? envelope() : List.of();
        super.sendCommand(cmd);
        for (String ahead : group) {
            try {
                super.sendCommand(ahead);
            } catch (MessagingException e) {
                // The relay closed the session after reading MAIL FROM (a 421, say): its reply to that
                // is what the mail API reads next and reports; the command not written is not owed one.
                break;
            }
            writtenAhead.addLast(ahead);
        }
    }

    @Override
    protected int readServerResponse() throws MessagingException {
        return dropped ? -1 : super.readServerResponse();
    }

    /**
     * The commands to write with this message's {@code MAIL FROM}, exactly as the mail API will ask
     * for them; none when the relay does not pipeline, or the API would word them otherwise (several
     * recipients, delivery notifications asked for).
     */
    private List<String> envelope() {
        if (recipients == null || recipients.length != 1 || !supportsExtension("PIPELINING")
                || !(recipients[0] instanceof InternetAddress address)) {
            return List.of();
        }
        String to = address.getAddress();
        List<String> group = new ArrayList<>(2);
        group.add("RCPT TO:" + (to.startsWith("<") || to.endsWith(">") ? to : "<" + to + ">"));
        if (!chunking()) {
            group.add("DATA");
        }
        return group;
    }

    /** As the mail API decides between DATA and BDAT. */
    private boolean chunking() {
        String size = session.getProperty("mail.smtp.chunksize");
        return size != null && !size.isBlank() && !size.trim().equals("0") && supportsExtension("CHUNKING");
    }

    /**
     * Reads the replies to the commands written ahead that the mail API no longer asks for (it
     * stopped at a refusal). A DATA accepted after that would take the next command as the message:
     * the connection is dropped instead, quietly, so that the refusal is still what the send reports.
     */
    private void readRepliesOwed() {
        while (!writtenAhead.isEmpty()) {
            String command = writtenAhead.removeFirst();
            int reply;
            try {
                reply = super.readServerResponse();
            } catch (MessagingException e) {
                reply = -1; // reset by a relay that closed with our commands unread
            }
            if (reply == -1 || command.equals("DATA") && reply == 354) {
                // The relay is gone, or waits for a message: the refusal the mail API is reporting stays
                // what the send reports, and the connection opens a new session for its next (ended()).
                drop();
                return;
            }
        }
    }

    /**
     * Ends the connection without a QUIT, which a relay in the middle of DATA would take as part of
     * the message: the socket is closed first (a message cut off before its final dot is discarded),
     * then the mail API's own state.
     */
    private void drop() {
        writtenAhead.clear();
        dropped = true;
        ended = true;
        if (session.getProperties().get("mail.smtp.socketFactory") instanceof TrackedSockets sockets) {
            sockets.closeNow();
        }
        try {
            super.close();
        } catch (MessagingException e) {
            // The socket is already closed: QUIT cannot go out, and the mail API forgets the connection anyway.
        }
    }
}
