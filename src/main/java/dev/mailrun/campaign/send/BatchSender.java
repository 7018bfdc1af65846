package dev.mailrun.campaign.send;

import dev.mailrun.campaign.send.claim.ClaimAhead;
import dev.mailrun.campaign.send.deliver.Messages;
import dev.mailrun.campaign.send.deliver.RouteSender;
import dev.mailrun.campaign.send.pace.DomainPacer;
import dev.mailrun.campaign.send.record.ResultBuffer;
import dev.mailrun.campaign.send.scope.RunScope;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.recipient.RecipientClaims.Claim;
import dev.mailrun.timebox.BatchBudget;
import dev.mailrun.timebox.BatchResult;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Sends one timeboxed batch: takes the batch claimed ahead (or claims one), hands back what no
 * longer fits the budget, starts claiming the next, and sends the rest through the relays of the route
 * ({@link RouteSender}), each message only once its recipient is marked in flight. Rendering happens on
 * the pools' threads. A batch ends when the connections took all of it; its last messages finish
 * while the next batch starts.
 */
final class BatchSender {

    private final RunScope run;
    private final ClaimAhead claims;
    private final ResultBuffer buffer;
    private final Messages messages;
    private final DomainPacer domains;
    private long claimed;
    /** What the last batch that tried nothing had and what held it, for a run that ends for want of progress. */
    private Optional<String> lastEmpty = Optional.empty();

    BatchSender(RunScope run, ClaimAhead claims, ResultBuffer buffer, Messages messages, DomainPacer domains) {
        this.domains = domains;
        this.run = run;
        this.claims = claims;
        this.buffer = buffer;
        this.messages = messages;
    }

    /**
     * @param mustStop true once the run must stop (paused, relay unreachable, lease lost…); the
     *                 pool also stops on a shutdown request and when the budget has no time left
     * @return the messages tried: the timebox learns from what was tried, not from what was
     *         claimed and handed back
     */
    BatchResult send(BatchBudget budget, RouteSender route, BooleanSupplier mustStop) throws Exception {
        if (mustStop.getAsBoolean()) {
            return BatchResult.done(0);
        }
        long before = buffer.triedOrPending();
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
        Instant sendDeadline = budget.deadline().minus(run.settings().batchOverhead());
        route.send(recipients, sendDeadline,
                () -> run.ctx().stopRequested() || mustStop.getAsBoolean() || !budget.hasTimeForAnotherItem(),
                buffer, messages, run.settings().flush().every());
        // No flush here: the flush thread writes these results together with the next batch's
        // first marks, so the connections do not wait for an extra round trip between batches.
        // The batch's last messages may still be on the wire (the connections go on with the next
        // batch as they finish): they count as tried, and any of the batch before that came back
        // untried since count against this one.
        int tried = (int) Math.max(0, buffer.triedOrPending() - before);
        if (tried == 0) {
            String down = route.downSummary();
            lastEmpty = Optional.of(String.format(java.util.Locale.ROOT,
                    "the last batch took %d recipient(s) and tried none of them, with %.1f s left before the deadline%s",
                    recipients.size(), budget.remaining().toMillis() / 1000.0,
                    down.isEmpty() ? "" : "; relays not up: " + down));
        }
        if (tried == 0 && route.failedOverInLastBatch()) {
            // Its relay went down before trying anything and handed the batch back, but another relay of
            // the route is up: counted as one item, so that the timebox goes on to the next batch (which
            // that relay takes) rather than end the run for want of progress.
            tried = 1;
        }
        return BatchResult.more(tried);
    }

    /** The last batch that tried nothing, described: what it had and what held it back. */
    Optional<String> lastEmptyBatch() {
        return lastEmpty;
    }

    /** Recipients this run took into its batches (not those handed back for lack of budget). */
    long claimed() {
        return claimed;
    }
}
