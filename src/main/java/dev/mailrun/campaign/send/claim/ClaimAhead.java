package dev.mailrun.campaign.send.claim;

import dev.mailrun.campaign.send.record.DatabaseWaits;
import dev.mailrun.campaign.send.record.ResultBuffer;
import dev.mailrun.campaign.store.recipient.RecipientClaims.Claim;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims the next batch on a helper thread while the current one sends, so the SMTP connections do
 * not wait for the claim between batches. A batch claimed ahead goes back to the queue, untried, if
 * the campaign stopped running meanwhile (pause and cancel still act at the batch boundary) or the
 * run ends before sending it.
 *
 * <p>{@link #take} and {@link #claimNext} are called by the run's thread only.
 */
public final class ClaimAhead {

    /** Writes the run's buffered results and releases now, on the caller's thread, and waits for it. */
    @FunctionalInterface
    public interface Flush {
        void now() throws InterruptedException;
    }

    private static final Logger log = LoggerFactory.getLogger(ClaimAhead.class);

    private final Claimer claimer;
    private final ResultBuffer buffer;
    private final Flush flushes;
    private final long campaignId;
    private final DatabaseWaits waits;
    private final ExecutorService thread;
    /** The claim under way or done, not yet taken; null when none was started. */
    private Future<Optional<Claim>> next;

    /** @param waits told while the run waits for a claim: its connections run dry meanwhile */
    public ClaimAhead(Claimer claimer, ResultBuffer buffer, Flush flushes, long campaignId, DatabaseWaits waits) {
        this.claimer = claimer;
        this.buffer = buffer;
        this.flushes = flushes;
        this.campaignId = campaignId;
        this.waits = waits;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "mailrun-claim-" + campaignId);
            t.setDaemon(true);
            return t;
        });
    }

    /** The batch claimed ahead during the previous one, or, when none was, a claim made now. */
    public Optional<Claim> take(int max) throws Exception {
        waits.begins();
        try {
            return takeNow(max);
        } finally {
            waits.ends();
        }
    }

    private Optional<Claim> takeNow(int max) throws Exception {
        if (next == null) {
            return claimer.claim(max);
        }
        Optional<Claim> claim = awaitNext();
        if (claim.isPresent() && !claimer.campaignRunning()) {
            buffer.handBack(claim.get().recipients());
            return Optional.empty();
        }
        if (claim.isPresent() && claim.get().recipients().isEmpty()) {
            // Made while the last batch was sent, the claim left out that batch's recipients and
            // those handed back whose release was not written yet: a batch the timebox shrank hands
            // back the rest of its claim just before the next claim starts. An empty claim ends the
            // run, so before that the releases are written and the queue is asked once more;
            // otherwise the tail of a list would wait for the next tick.
            flushes.now();
            return claimer.claim(max);
        }
        return claim;
    }

    /** Starts claiming the next batch, of up to {@code max} recipients. */
    public void claimNext(int max) {
        next = thread.submit(() -> claimer.claim(max));
    }

    /** At the end of the run: the batch claimed ahead, if any, goes back to the queue with the last flush. */
    public void handBack() {
        try {
            if (next != null) {
                awaitNext().ifPresent(claim -> buffer.handBack(claim.recipients()));
            }
        } catch (Exception e) {
            // Nothing to undo: a claim writes nothing to its rows, which are still in the queue
            // (only the daily cap's slots it counted stay taken for the day).
            log.warn("Campaign {}: the batch claimed ahead could not be handed back: {}", campaignId, e.getMessage());
        }
    }

    public void shutdown() {
        thread.shutdown();
    }

    /** The claim made ahead, waited for. */
    private Optional<Claim> awaitNext() throws Exception {
        Future<Optional<Claim>> f = next;
        next = null;
        try {
            return f.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
