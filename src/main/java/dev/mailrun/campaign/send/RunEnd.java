package dev.mailrun.campaign.send;

import dev.mailrun.campaign.model.CampaignTransition;
import dev.mailrun.campaign.send.scope.RunScope;
import dev.mailrun.campaign.send.scope.Tables;
import dev.mailrun.events.EventOutbox;
import dev.mailrun.events.EventType;
import dev.mailrun.events.OutboxEvent;
import dev.mailrun.scheduler.RunContext;
import dev.mailrun.timebox.TimeboxReport;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Settles a run once its results are flushed: stores the timebox estimator so the next run starts
 * calibrated, completes the campaign when nothing is pending or waiting for a retry (disabling the
 * task), and otherwise, when only retries due later are left, moves the next run to the slot of the
 * first of them rather than tick idly. A run that lost its lease writes nothing. The campaign row is
 * locked before the check, so a recipients import that is committing meanwhile is either seen by
 * the check or refused afterwards because the campaign is complete; never left pending in it.
 */
final class RunEnd {

    /** What the end of a run found: whether the campaign completed, and when the next retry is due. */
    private record Ending(boolean completed, Optional<Instant> nextRetry) {
        static final Ending NONE = new Ending(false, Optional.empty());
    }

    /** What this run did, for its {@code run.finished} event. */
    record Counts(long sent, long failed, long deferred, long claimed) {}

    private final RunScope run;
    private final EventOutbox events = new EventOutbox();

    RunEnd(RunScope run) {
        this.run = run;
    }

    /** @return whether the campaign completed */
    boolean settle(TimeboxReport report, boolean leaseLost, Counts counts) throws SQLException {
        RunContext ctx = run.ctx();
        Ending ending = leaseLost ? Ending.NONE : store(report, counts);
        if (ending.completed()) {
            ctx.disableAfterThisRun();
        } else {
            // Slots stay on the tick grid so runs keep their full window.
            ending.nextRetry().map(at -> NextRun.slotAtOrAfter(at, ctx.interval()))
                    .filter(at -> at.isAfter(ctx.scheduledFor().plus(ctx.interval())))
                    .ifPresent(ctx::runNextAt);
        }
        return ending.completed();
    }

    /** The estimator, the completion check, the run.finished event and the checkpoint, in one transaction. */
    private Ending store(TimeboxReport report, Counts counts) throws SQLException {
        Instant now = run.clock().instant();
        long id = run.campaignId();
        Tables tables = run.tables();
        run.ctx().metadata().putValue(RunMemory.TIMEBOX_KEY, report.estimator().toMap());
        return tables.inTransaction(c -> {
            // Locked first, so that no import batch commits between "nothing left" and COMPLETE.
            tables.campaigns().lockExclusive(c, id);
            Ending e = tables.queue().hasWorkLeft(c, id)
                    ? new Ending(false, tables.queue().hasPendingNow(c, id, now) ? Optional.empty()
                            : tables.queue().nextRetryAt(c, id))
                    : new Ending(tables.campaigns().transition(c, id, CampaignTransition.COMPLETE, null, now), Optional.empty());
            // Optional: written only when an endpoint names run.finished (the outbox drops it otherwise).
            events.write(c, List.of(OutboxEvent.of(EventType.RUN_FINISHED, id, null, null, OutboxEvent.fields(
                    "task", run.ctx().taskName(), "started_at", report.started().toString(), "ended_at", now.toString(),
                    "sent", counts.sent(), "failed", counts.failed(), "deferred", counts.deferred(),
                    "claimed", counts.claimed(), "completed", e.completed()))), now);
            if (!run.ctx().checkpoint(c)) {
                c.rollback();
                return Ending.NONE;
            }
            return e;
        });
    }
}
