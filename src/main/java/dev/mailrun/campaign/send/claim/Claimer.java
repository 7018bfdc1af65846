package dev.mailrun.campaign.send.claim;

import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.send.deliver.RouteSender;
import dev.mailrun.campaign.send.pace.DomainPacer;
import dev.mailrun.campaign.send.pace.Pacing;
import dev.mailrun.campaign.send.policy.DailyQuota;
import dev.mailrun.campaign.send.record.Checkpoint;
import dev.mailrun.campaign.send.record.ResultBuffer;
import dev.mailrun.campaign.send.scope.RunScope;
import dev.mailrun.campaign.send.scope.SendCounters;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.campaign.send.scope.Tables;
import dev.mailrun.campaign.store.recipient.RecipientClaims;
import dev.mailrun.campaign.store.recipient.RecipientClaims.Claim;
import dev.mailrun.campaign.store.recipient.RecipientClaims.PacedClaim;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * Claims recipients for the run, in one transaction per claim:
 * <ol>
 *   <li>the campaign must still be running (pause and cancel act at batch boundaries);</li>
 *   <li>with a daily cap, the day's counter row of each relay of the route is locked and the claim
 *       takes at most what the relays it can send through have left, each recipient reserved for
 *       one of them ({@link DailyQuota});</li>
 *   <li>a plain {@code SELECT}: up to {@code max} due recipients, none of the run's own batch being
 *       sent, counted for the day; nothing is written to them until a flush marks them sending;</li>
 *   <li>the counters are checkpointed last, with the suppressed recipients the claim found: a run
 *       whose lease was taken over rolls the claim back here and gives up.</li>
 * </ol>
 * Flushes of results wait for a claim (both write the counters); a flush's marks do not, and the
 * task row, which the marks' fence writes too, is locked only from the checkpoint to the commit.
 */
public final class Claimer {

    private final RunScope run;
    private final Checkpoint checkpoint;
    private final ResultBuffer buffer;
    private final DailyQuota quota;
    private final ToLongFunction<String> usable;
    private final Pacing pacing;
    private final RecipientClaims claims;
    /** The highest pending id a test-share claim of this run took: where the next one starts reading. */
    private long testCursor;

    /**
     * @param usable how many recipients each relay can be given now ({@link RouteSender#usable})
     * @param claims the claim statements: all due recipients, or an A/B test's test share only
     */
    public Claimer(RunScope run, Checkpoint checkpoint, ResultBuffer buffer, DailyQuota quota, ToLongFunction<String> usable,
            Pacing pacing, RecipientClaims claims) {
        this.claims = claims;
        this.run = run;
        this.checkpoint = checkpoint;
        this.buffer = buffer;
        this.quota = quota;
        this.usable = usable;
        this.pacing = pacing;
    }

    /**
     * Claims up to {@code max} recipients; empty when the campaign is no longer running or the
     * lease is lost. A claim that found only suppressed recipients is repeated, so a run of
     * suppressed addresses never looks like an empty queue.
     */
    Optional<Claim> claim(int max) throws SQLException {
        // Flushes wait meanwhile: the claim checkpoints the counters it changed (suppressed).
        return checkpoint.exclusive(() -> {
            while (true) {
                Optional<Claim> claim = claimOnce(max);
                if (claim.isEmpty() || !claim.get().recipients().isEmpty() || claim.get().suppressed() == 0) {
                    return claim;
                }
            }
        });
    }

    private Optional<Claim> claimOnce(int max) throws SQLException {
        Instant now = run.clock().instant();
        Tables tables = run.tables();
        Optional<Claim> claim = tables.inTransaction(c -> {
            Optional<CampaignStatus> status = tables.campaigns().status(c, run.campaignId());
            if (status.isEmpty() || status.get() != CampaignStatus.RUNNING) {
                return Optional.empty();
            }
            // The day's count is taken with the claim, under the counter row's lock: two workers
            // cannot both take the last slots, and a claim that rolls back counts nothing.
            DailyQuota.Allowance allowance = quota.allow(c, now, max, usable);
            Claim cl = allowance.count() == 0 ? new Claim(List.of(), 0)
                    : pacing.domains().active() ? claimPaced(c, now, allowance.count())
                    : claims.takesTestShareOnly() ? claimTestShare(c, now, allowance.count())
                    : claims.claim(c, run.campaignId(), now, allowance.count(), buffer.notToClaim());
            quota.took(c, allowance, cl.recipients());
            // The lease last: the task row is locked from here to the commit only, so the marks of
            // the batch being sent, fenced by the same row, wait for a claim's commit at most, not
            // for all of it. A claim that ran while the lease was taken over rolls back here; it
            // wrote nothing else but suppressed rows and the day's counts, rolled back with it.
            if (!checkpoint.write(c, withSuppressed(cl.suppressed()))) {
                checkpoint.markLeaseLost();
                c.rollback();
                return Optional.empty();
            }
            return Optional.of(cl);
        });
        claim.ifPresent(cl -> checkpoint.committed(withSuppressed(cl.suppressed())));
        claim.ifPresent(cl -> quota.committed());
        claim.filter(cl -> cl.suppressed() > 0)
                .ifPresent(cl -> run.events().messages(run.campaignId(), SendEvents.Outcome.SUPPRESSED, cl.suppressed()));
        return claim;
    }

    /**
     * A claim of an A/B test's share, from the highest pending id this run claimed (claims run one at
     * a time, under {@link Checkpoint#exclusive}). A claim that rolls back may have moved the cursor
     * past rows it did not keep: the pass from the start up to the cursor reads them again.
     */
    private Claim claimTestShare(java.sql.Connection c, Instant now, int max) throws SQLException {
        RecipientClaims.CursorClaim found = claims.claimFrom(c, run.campaignId(), now, max, buffer.notToClaim(), testCursor);
        if (found.lastPendingId() > 0) {
            testCursor = found.lastPendingId();
        }
        return found.claim();
    }

    /** A claim that takes from each paced domain group only its share ({@link DomainPacer#plan}). */
    private Claim claimPaced(java.sql.Connection c, Instant now, int max) throws SQLException {
        DomainPacer domains = pacing.domains();
        PacedClaim found = null;
        // A claim that found nothing is made once more as a last chance: parts left alone for
        // having run dry, or a group given nothing for lack of credit, may still hold recipients,
        // and an empty claim ends the run.
        for (boolean lastChance : new boolean[] {false, true}) {
            DomainPacer.Plan plan = domains.plan(max, pacing.runRate(), now, lastChance);
            found = claims.claimPaced(c, run.campaignId(), now,
                    plan.others(), plan.othersFrom(), plan.paced(), plan.quotas(), buffer.notToClaim());
            domains.claimed(plan, found, now, buffer.releasing());
            if (found.claim().recipients().size() + found.claim().suppressed() > 0) {
                break;
            }
        }
        return found.claim();
    }

    /**
     * The counters with the suppressed recipients a claim found. Results not yet flushed may be
     * pending: they are not in these counters, nor in the table.
     */
    private SendCounters withSuppressed(int suppressed) {
        return checkpoint.counters().plusSuppressed(suppressed, buffer.recent());
    }

    /** Whether the campaign is still running, read now. */
    boolean campaignRunning() throws SQLException {
        return run.tables().inTransaction(c -> run.tables().campaigns().status(c, run.campaignId()))
                .filter(status -> status == CampaignStatus.RUNNING).isPresent();
    }
}
