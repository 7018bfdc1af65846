package dev.mailrun.campaign.send;

import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.RecipientTable.Claim;
import dev.mailrun.mail.smtp.SmtpPool;
import dev.mailrun.timebox.BatchBudget;
import dev.mailrun.timebox.BatchResult;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Sends one timeboxed batch: takes the batch claimed ahead (or claims one), hands back what no
 * longer fits the budget, starts claiming the next, and sends the rest through the SMTP pool, each
 * message only once its recipient is marked sending. Rendering happens on the pool's threads.
 */
final class BatchSender {

    private final RunScope run;
    private final ClaimAhead claims;
    private final ResultBuffer buffer;
    private final MessageFactory messages;
    private final int markAhead;
    private final DomainPacer domains;
    private long claimed;

    /** @param markAhead how many recipients to keep marked sending ahead of the workers ({@link SendingMarker#ahead}) */
    BatchSender(RunScope run, ClaimAhead claims, ResultBuffer buffer, MessageFactory messages, int markAhead,
                DomainPacer domains) {
        this.run = run;
        this.claims = claims;
        this.buffer = buffer;
        this.messages = messages;
        this.markAhead = markAhead;
        this.domains = domains;
    }

    /**
     * @param mustStop true once the run must stop (paused, relay unreachable, lease lost…); the
     *                 pool also stops on a shutdown request and when the budget has no time left
     * @return the messages tried: the timebox learns from what was tried, not from what was
     *         claimed and handed back
     */
    BatchResult send(BatchBudget budget, SmtpPool pool, BooleanSupplier mustStop) throws Exception {
        if (mustStop.getAsBoolean()) {
            return BatchResult.done(0);
        }
        Optional<Claim> claim = claims.take(budget.maxItems());
        if (claim.isEmpty() || claim.get().recipients().isEmpty()) {
            return BatchResult.done(0);
        }
        List<ClaimedRecipient> recipients = domains.interleave(claim.get().recipients());
        if (recipients.size() > budget.maxItems()) {
            // Claimed ahead for a larger batch than the timebox now allows: hand back the rest.
            buffer.handBack(recipients.subList(budget.maxItems(), recipients.size()));
            recipients = recipients.subList(0, budget.maxItems());
        }
        claimed += recipients.size();
        buffer.hold(recipients);
        claims.claimNext(budget.maxItems());
        long attemptedBefore = buffer.attempted();
        SendingMarker marker = new SendingMarker(markAhead, recipients.stream().map(ClaimedRecipient::id).toList(),
                buffer::requestFlush);
        buffer.watch(marker);
        Instant sendDeadline = budget.deadline().minus(run.settings().batchOverhead());
        pool.sendBatch(recipients.stream().map(r -> PacedOutgoing.of(messages.outgoing(r, marker::beforeSend),
                        domains.limiterFor(r.email()))).toList(), sendDeadline,
                () -> run.ctx().stopRequested() || mustStop.getAsBoolean() || !budget.hasTimeForAnotherItem(),
                buffer::accept);
        // No flush here: the flush thread writes these results together with the next batch's
        // first marks, so the connections do not wait for an extra round trip between batches.
        return BatchResult.more((int) (buffer.attempted() - attemptedBefore));
    }

    /** Recipients this run took into its batches (not those handed back for lack of budget). */
    long claimed() {
        return claimed;
    }
}
