package dev.mailrun.mail.bounce;

import jakarta.mail.Flags;
import jakarta.mail.Folder;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Store;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.search.FlagTerm;
import jakarta.mail.search.NotTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.eclipse.angus.mail.imap.IMAPFolder;
import org.eclipse.angus.mail.imap.IMAPStore;

/**
 * Reads messages not yet processed from the bounce mailbox (or, the same way, the replies mailbox:
 * {@link MailboxSettings#name()}) and marks each one processed after its handler returned.
 *
 * <ol>
 *   <li>Connect, open the folder read-write. Message bodies are fetched with PEEK, so reading alone
 *       never marks a message seen.</li>
 *   <li>Unprocessed means: without the {@code $MailrunProcessed} keyword, or — when a processed folder
 *       is configured — anything still in the folder.</li>
 *   <li>For each, in order, up to the limit: copy it whole, hand it to the handler, and only when the
 *       handler returns mark it: keyword (or move), plus \Seen when the handler says DONE; a message
 *       left FOR_REVIEW stays unread so that a person notices it.</li>
 * </ol>
 * A handler that throws stops the run with that message unmarked: it is read again next run. The
 * handler commits its effects before returning, so the one unsafe moment is a crash between that
 * commit and the mark — the message is then handled twice, which is why handlers must be idempotent.
 * A {@link BatchHandler} gets up to a batch of messages at once (one transaction for all of them);
 * they are marked after it returned, so the same holds for the batch.
 */
public final class BounceMailbox {

    public static final String PROCESSED_KEYWORD = "$MailrunProcessed";

    /** What the handler decided about a message. */
    public enum Disposition {
        /** Handled: mark processed and seen. */
        DONE,
        /** Not understood: mark processed (so it is not read again) but leave it unread for a person. */
        FOR_REVIEW,
        /** Handled, and a person reads it too (a reply): mark processed, leave \Seen as it was. */
        KEPT_UNREAD
    }

    @FunctionalInterface
    public interface Handler<E extends Exception> {
        Disposition handle(MimeMessage message) throws E;
    }

    /** Handles several messages at once; returns one disposition per message, in order. */
    @FunctionalInterface
    public interface BatchHandler<E extends Exception> {
        List<Disposition> handle(List<MimeMessage> messages) throws E;
    }

    /** How many messages one run read, and how many of them were left for review. */
    public record Run(int read, int forReview) {}

    private final MailboxSettings settings;

    public BounceMailbox(MailboxSettings settings) {
        this.settings = settings;
    }

    public <E extends Exception> Run readUnprocessed(int limit, Handler<E> handler) throws MessagingException, E {
        return readUnprocessed(limit, 1, batch -> List.of(handler.handle(batch.get(0))));
    }

    /** Reads up to {@code limit} messages, handing them to {@code handler} up to {@code batchSize} at a time. */
    public <E extends Exception> Run readUnprocessed(int limit, int batchSize, BatchHandler<E> handler)
            throws MessagingException, E {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be at least 1, was " + batchSize);
        }
        String protocol = settings.tls() ? "imaps" : "imap";
        Session session = Session.getInstance(properties(protocol));
        try (Store store = session.getStore(protocol)) {
            store.connect(settings.host(), settings.port(), settings.user(), settings.password());
            Folder folder = store.getFolder(settings.folder());
            if (!folder.exists()) {
                throw new MessagingException(settings.name() + " mailbox folder '" + settings.folder() + "' does not exist on "
                        + settings.host());
            }
            folder.open(Folder.READ_WRITE);
            boolean expunge = false;
            try {
                Marker marker = marker(store, folder);
                Message[] candidates = marker.moves()
                        ? folder.getMessages()
                        : folder.search(new NotTerm(new FlagTerm(new Flags(PROCESSED_KEYWORD), true)));
                Tally tally = new Tally();
                List<Message> batch = new ArrayList<>();
                for (Message m : candidates) {
                    if (tally.read + batch.size() == limit) {
                        break;
                    }
                    if (m.isExpunged()) {
                        continue;
                    }
                    batch.add(m);
                    if (batch.size() == batchSize) {
                        expunge |= handle(batch, handler, marker, tally);
                    }
                }
                expunge |= handle(batch, handler, marker, tally);
                return new Run(tally.read, tally.forReview);
            } finally {
                folder.close(expunge);
            }
        }
    }

    /** What a run has read so far. */
    private static final class Tally {
        int read;
        int forReview;
    }

    /**
     * Hands {@code batch} (copied whole) to the handler, then marks each message; empties the batch.
     * Returns true when the folder must be expunged on close.
     */
    private static <E extends Exception> boolean handle(List<Message> batch, BatchHandler<E> handler, Marker marker,
                                                        Tally tally) throws MessagingException, E {
        if (batch.isEmpty()) {
            return false;
        }
        List<MimeMessage> copies = new ArrayList<>(batch.size());
        for (Message m : batch) {
            copies.add(new MimeMessage((MimeMessage) m));
        }
        List<Disposition> dispositions = handler.handle(List.copyOf(copies));
        if (dispositions.size() != batch.size()) {
            throw new IllegalStateException("handler returned " + dispositions.size() + " dispositions for "
                    + batch.size() + " messages");
        }
        boolean expunge = false;
        for (int i = 0; i < batch.size(); i++) {
            tally.read++;
            tally.forReview += dispositions.get(i) == Disposition.FOR_REVIEW ? 1 : 0;
            expunge |= marker.mark(batch.get(i), dispositions.get(i));
        }
        batch.clear();
        return expunge;
    }

    private Properties properties(String protocol) {
        Properties p = new Properties();
        String prefix = "mail." + protocol + ".";
        p.setProperty(prefix + "connectiontimeout", "15000");
        p.setProperty(prefix + "timeout", "60000");
        p.setProperty(prefix + "writetimeout", "60000");
        // Fetch bodies with BODY.PEEK: being read must not mark a message \Seen by itself.
        p.setProperty(prefix + "peek", "true");
        if (settings.tls()) {
            p.setProperty(prefix + "ssl.checkserveridentity", "true");
        }
        return p;
    }

    private Marker marker(Store store, Folder folder) throws MessagingException {
        if (settings.processedFolder().isPresent()) {
            Folder target = store.getFolder(settings.processedFolder().get());
            if (!target.exists() && !target.create(Folder.HOLDS_MESSAGES)) {
                throw new MessagingException("could not create " + settings.name() + " processed folder '" + target.getFullName() + "'");
            }
            boolean canMove = store instanceof IMAPStore imap && imap.hasCapability("MOVE");
            return new Marker(folder, target, canMove);
        }
        if (!folder.getPermanentFlags().contains(Flags.Flag.USER)) {
            throw new MessagingException(settings.name() + " mailbox '" + settings.folder() + "' on " + settings.host()
                    + " cannot keep keywords; set " + settings.name() + ".imap.processed-folder so processed messages are moved instead");
        }
        return new Marker(folder, null, false);
    }

    /** Marks one message processed: a keyword in place, or a move to the processed folder. */
    private record Marker(Folder folder, Folder target, boolean canMove) {

        boolean moves() {
            return target != null;
        }

        /** Returns true when the folder must be expunged on close (copy-and-delete moves). */
        boolean mark(Message m, Disposition disposition) throws MessagingException {
            if (disposition == Disposition.DONE) {
                m.setFlag(Flags.Flag.SEEN, true);
            }
            if (!moves()) {
                m.setFlags(new Flags(PROCESSED_KEYWORD), true);
                return false;
            }
            if (canMove && folder instanceof IMAPFolder imap) {
                imap.moveMessages(new Message[] {m}, target);
                return false;
            }
            // Without MOVE: a crash between copy and delete leaves a copy in both; the handler is idempotent.
            folder.copyMessages(new Message[] {m}, target);
            m.setFlag(Flags.Flag.DELETED, true);
            return true;
        }
    }
}
