package dev.mailrun.campaign.bounce;

import dev.mailrun.campaign.unsubscribe.MailedUnsubscribes;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.bounce.BounceKind;
import dev.mailrun.mail.bounce.BounceMailbox;
import dev.mailrun.mail.bounce.BounceParser;
import dev.mailrun.mail.bounce.BounceReport;
import dev.mailrun.scheduler.RunReport;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of bounce processing: read unprocessed messages from the bounce mailbox, parse each,
 * apply its reports in one transaction, then let the mailbox mark it processed; finally check the
 * bounce rate of every campaign that got new hard bounces, and the complaint rate of every campaign
 * that got new complaints. Unsubscribe requests sent by mail
 * (the List-Unsubscribe mailto) arrive in the same mailbox and are applied first, by
 * {@link MailedUnsubscribes}; one whose token does not verify changes nothing and is left for review.
 *
 * <p>Crash safety: a message is marked processed only after its transaction committed, and applying
 * a message twice changes nothing (see {@link BounceApplier}), so a crash at any point loses no
 * bounce and double-counts none. A database failure stops the run with the message unmarked.
 *
 * <p>Messages with nothing recognisable in them are logged at WARN and marked processed but left
 * unread, so they are not parsed again every run and a person looking at the mailbox sees them.
 */
public final class BounceProcessor {

    private static final Logger log = LoggerFactory.getLogger(BounceProcessor.class);

    private final BounceMailbox mailbox;
    private final MailedUnsubscribes unsubscribes;
    private final BounceParser parser;
    private final BounceApplier applier;
    private final BounceRateBreaker breaker;
    private final ComplaintRateBreaker complaintBreaker;
    private final DataSource dataSource;
    private final Clock clock;
    private final TooFastDelays delays;

    public BounceProcessor(BounceMailbox mailbox, MailedUnsubscribes unsubscribes, BounceParser parser,
                           BounceApplier applier, BounceRateBreaker breaker, ComplaintRateBreaker complaintBreaker,
                           DataSource dataSource, Clock clock) {
        this(mailbox, unsubscribes, parser, applier, breaker, complaintBreaker, dataSource, clock, TooFastDelays.NONE);
    }

    /** @param delays slows a domain group down for delayed DSNs that say the sender is too fast */
    public BounceProcessor(BounceMailbox mailbox, MailedUnsubscribes unsubscribes, BounceParser parser,
                           BounceApplier applier, BounceRateBreaker breaker, ComplaintRateBreaker complaintBreaker,
                           DataSource dataSource, Clock clock, TooFastDelays delays) {
        this.delays = delays;
        this.mailbox = mailbox;
        this.unsubscribes = unsubscribes;
        this.parser = parser;
        this.applier = applier;
        this.breaker = breaker;
        this.complaintBreaker = complaintBreaker;
        this.dataSource = dataSource;
        this.clock = clock;
    }

    /** The bounce task's row ({@code task.name}) and handler: created by a worker whose configuration has a mailbox. */
    public static final String TASK = "bounces";
    public static final String HANDLER = "bounce-check";
    private static final int MESSAGES_PER_RUN = 5_000;

    /**
     * One run of the bounce task: reads the bounce mailbox once (bounces, complaints and unsubscribe
     * requests sent by mail). Each message's effects commit before the message is marked processed,
     * and applying a bounce twice changes nothing, so a crash anywhere is harmless.
     */
    public RunReport readMailbox() throws MessagingException, SQLException {
        BounceSummary summary = process(MESSAGES_PER_RUN);
        return new RunReport(1, summary.messagesRead(), null, Duration.ZERO, Map.of(
                "read", summary.messagesRead(), "hard", summary.hard(), "soft", summary.soft(),
                "complaints", summary.complaints(), "refused", summary.refused(), "unrecognised", summary.unrecognised(),
                "unmatched", summary.unmatched(), "unsubscribes", summary.unsubscribes(),
                "invalid-unsubscribes", summary.invalidUnsubscribes(), "paused", summary.pausedCampaigns()));
    }

    /** Processes up to {@code limit} messages. */
    BounceSummary process(int limit) throws MessagingException, SQLException {
        Map<BounceApplier.Effect, Integer> counts = new EnumMap<>(BounceApplier.Effect.class);
        Map<MailedUnsubscribes.Outcome, Integer> requests = new EnumMap<>(MailedUnsubscribes.Outcome.class);
        Set<Long> hardBounced = new TreeSet<>();
        Set<Long> complained = new TreeSet<>();
        BounceMailbox.Run run = mailbox.readUnprocessed(limit, message -> {
            MailedUnsubscribes.Outcome request = unsubscribes.handle(message);
            if (request != MailedUnsubscribes.Outcome.NOT_A_REQUEST) {
                requests.merge(request, 1, Integer::sum);
                return request == MailedUnsubscribes.Outcome.INVALID
                        ? BounceMailbox.Disposition.FOR_REVIEW : BounceMailbox.Disposition.DONE;
            }
            List<BounceReport> reports = parser.parse(message);
            List<BounceApplier.Applied> applied = Transactions.inTransaction(dataSource, c -> {
                Instant now = clock.instant();
                List<BounceApplier.Applied> a = applier.apply(c, reports, now);
                for (int i = 0; i < a.size(); i++) {
                    if (a.get(i).effect() == BounceApplier.Effect.SOFT) {
                        // First time this delay is applied: a duplicate would slow the group twice.
                        delays.apply(c, reports.get(i), now).ifPresent(group ->
                                log.info("bounce mailbox: a delayed DSN says too fast for the {} group; its rate is halved", group));
                    }
                }
                return a;
            });
            for (int i = 0; i < applied.size(); i++) {
                BounceApplier.Applied a = applied.get(i);
                counts.merge(a.effect(), 1, Integer::sum);
                a.hardBouncedCampaign().ifPresent(hardBounced::add);
                a.complainedCampaign().ifPresent(complained::add);
                logReport(message, reports.get(i), a.effect());
            }
            boolean recognised = reports.stream().anyMatch(r -> r.kind() != BounceKind.UNRECOGNISED);
            return recognised ? BounceMailbox.Disposition.DONE : BounceMailbox.Disposition.FOR_REVIEW;
        });
        List<Long> paused = new ArrayList<>();
        for (long campaignId : hardBounced) {
            if (breaker.pauseIfTooHigh(campaignId).isPresent()) {
                paused.add(campaignId);
            }
        }
        for (long campaignId : complained) {
            if (!paused.contains(campaignId) && complaintBreaker.pauseIfTooHigh(campaignId).isPresent()) {
                paused.add(campaignId);
            }
        }
        return new BounceSummary(run.read(), count(counts, BounceApplier.Effect.HARD), count(counts, BounceApplier.Effect.SOFT),
                count(counts, BounceApplier.Effect.COMPLAINT), count(counts, BounceApplier.Effect.REFUSED),
                count(counts, BounceApplier.Effect.UNRECOGNISED),
                count(counts, BounceApplier.Effect.UNMATCHED), count(counts, BounceApplier.Effect.DUPLICATE),
                requests.getOrDefault(MailedUnsubscribes.Outcome.UNSUBSCRIBED, 0)
                        + requests.getOrDefault(MailedUnsubscribes.Outcome.ALREADY_SUPPRESSED, 0),
                requests.getOrDefault(MailedUnsubscribes.Outcome.INVALID, 0), paused);
    }

    private static int count(Map<BounceApplier.Effect, Integer> counts, BounceApplier.Effect effect) {
        return counts.getOrDefault(effect, 0);
    }

    private static void logReport(MimeMessage message, BounceReport report, BounceApplier.Effect effect) {
        switch (effect) {
            case UNRECOGNISED -> log.warn("bounce mailbox: left for review: {} (subject '{}', from {}, id {})",
                    report.diagnostic(), header(message, "Subject"), header(message, "From"), header(message, "Message-ID"));
            case UNMATCHED -> log.info("bounce mailbox: {} for {} traces to no send of ours (id {}, original {})",
                    report.kind(), report.recipient().orElse("?"), header(message, "Message-ID"),
                    report.originalMessageId().orElse("?"));
            default -> log.debug("bounce mailbox: {} {} {} -> {}", report.kind(), report.recipient().orElse("?"),
                    report.status(), effect);
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
