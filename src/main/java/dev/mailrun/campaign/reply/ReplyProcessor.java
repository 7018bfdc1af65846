package dev.mailrun.campaign.reply;

import dev.mailrun.campaign.store.ReplyTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.bounce.BounceMailbox;
import dev.mailrun.mail.feedback.SendIds;
import dev.mailrun.mail.message.MessageIds;
import dev.mailrun.mail.reply.ReplyHeaders;
import dev.mailrun.scheduler.RunReport;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the replies mailbox: read unprocessed messages a batch at a time, tell people's replies
 * from automatic answers and reports ({@link ReplyHeaders}), trace each reply by the Message-IDs it
 * answers (In-Reply-To, then References) to the send whose signed Message-ID it names, and record the
 * batch's replies in one transaction before the batch is marked processed.
 *
 * <p>Every message is left as a person would find it — unread, only marked processed (or moved to
 * the processed folder): the replies mailbox is read by people too; mailrun only counts.
 *
 * <p>Crash safety: a batch is marked only after its transaction committed, and a recipient's reply
 * is recorded once (a second changes nothing), so a crash loses no reply and counts none twice.
 */
public final class ReplyProcessor {

    private static final Logger log = LoggerFactory.getLogger(ReplyProcessor.class);

    /**
     * Messages per transaction: one INSERT for a batch's replies. The mailbox holds each message of
     * a batch whole (a reply may carry attachments), so batches stay small.
     */
    static final int BATCH = 50;

    private final BounceMailbox mailbox;
    private final MessageIds messageIds;
    private final DataSource dataSource;
    private final Clock clock;
    private final ReplyTable replies = new ReplyTable();

    /** @param messageIds reads the Message-IDs mailrun put on its messages ({@link MessageIds#anyDomain}) */
    public ReplyProcessor(BounceMailbox mailbox, MessageIds messageIds, DataSource dataSource, Clock clock) {
        this.mailbox = mailbox;
        this.messageIds = messageIds;
        this.dataSource = dataSource;
        this.clock = clock;
    }

    /** What one run found, counted as the batches go. */
    private static final class Tally {
        int replies;
        int repeated;
        int automatic;
        int reports;
        int unmatched;
    }

    /** The replies task's row ({@code task.name}) and handler: created by a worker with {@code replies.imap.host}. */
    public static final String TASK = "replies";
    public static final String HANDLER = "reply-check";
    private static final int MESSAGES_PER_RUN = 5_000;

    /** One run of the replies task: reads the replies mailbox once; what {@code --pick-by replies} decides by. */
    public RunReport readMailbox() throws MessagingException, SQLException {
        ReplySummary s = process(MESSAGES_PER_RUN);
        return new RunReport(1, s.read(), null, Duration.ZERO, Map.of("read", s.read(), "replies", s.replies(),
                "repeated", s.repeated(), "automatic", s.automatic(), "reports", s.reports(), "unmatched", s.unmatched()));
    }

    /** Processes up to {@code limit} messages. */
    ReplySummary process(int limit) throws MessagingException, SQLException {
        Tally counts = new Tally();
        BounceMailbox.Run run = mailbox.readUnprocessed(limit, BATCH, batch -> {
            Instant now = clock.instant();
            List<ReplyTable.Reply> traced = new ArrayList<>();
            for (MimeMessage m : batch) {
                Optional<ReplyHeaders.Kind> kind = kind(m);
                if (kind.isEmpty()) {
                    counts.unmatched++;
                    continue;
                }
                switch (kind.get()) {
                    case AUTOMATIC -> counts.automatic++;
                    case REPORT -> counts.reports++;
                    case PERSON -> {
                        Optional<MessageIds.Ids> send = trace(m);
                        if (send.isPresent()) {
                            traced.add(new ReplyTable.Reply(send.get().campaignId(), send.get().recipientId(),
                                    ReplyHeaders.writtenAt(m, now)));
                        } else {
                            counts.unmatched++;
                            log.debug("replies mailbox: answers nothing of ours (id {})", header(m, "Message-ID"));
                        }
                    }
                }
            }
            if (!traced.isEmpty()) {
                int added = Transactions.inTransaction(dataSource, c -> replies.record(c, traced, now));
                counts.replies += added;
                counts.repeated += traced.size() - added;
            }
            return batch.stream().map(m -> BounceMailbox.Disposition.KEPT_UNREAD).toList();
        });
        return new ReplySummary(run.read(), counts.replies, counts.repeated, counts.automatic, counts.reports, counts.unmatched);
    }

    /** The send the message answers: the first id it names that mailrun signed, a test send's excepted. */
    private Optional<MessageIds.Ids> trace(MimeMessage m) {
        try {
            for (String id : ReplyHeaders.answered(m)) {
                Optional<MessageIds.Ids> ids = messageIds.parse(id);
                if (ids.isPresent() && ids.get().recipientId() != SendIds.TEST_RECIPIENT) {
                    return ids;
                }
            }
        } catch (MessagingException e) {
            log.warn("replies mailbox: unreadable In-Reply-To or References ({}); not counted", e.getMessage());
        }
        return Optional.empty();
    }

    /** Empty when the headers cannot be read: no reply that can be counted (it counts as unmatched). */
    private static Optional<ReplyHeaders.Kind> kind(MimeMessage m) {
        try {
            return Optional.of(ReplyHeaders.kind(m));
        } catch (MessagingException e) {
            log.warn("replies mailbox: unreadable headers ({}); not counted", e.getMessage());
            return Optional.empty();
        }
    }

    private static String header(MimeMessage message, String name) {
        try {
            return Optional.ofNullable(message.getHeader(name, ", ")).orElse("-");
        } catch (MessagingException e) {
            return "-";
        }
    }
}
