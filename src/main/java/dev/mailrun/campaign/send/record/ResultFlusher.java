package dev.mailrun.campaign.send.record;

import dev.mailrun.campaign.model.CampaignTransition;
import dev.mailrun.campaign.send.policy.DailyQuota;
import dev.mailrun.campaign.send.record.ResultBuffer.Taken;
import dev.mailrun.campaign.send.scope.RunScope;
import dev.mailrun.campaign.send.scope.SendCounters;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.campaign.send.scope.Tables;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.campaign.store.Outcome;
import dev.mailrun.events.TakenTypes;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Writes the buffered results back. A flush first commits the marks the {@link BatchMarker} wants,
 * if any, on their own, fenced by the task's lease, since the SMTP workers wait for them: the
 * recipients marked join the run's in-flight set ({@link InFlightTable}), which is what a crash
 * leaves unknown. Then, as the counters' only writer (claims wait meanwhile), in one transaction:
 * <ol>
 *   <li>records the outcomes (one batched statement per kind); recipients handed back unsent give
 *       their daily-cap slots back ({@link DailyQuota});</li>
 *   <li>takes the recorded recipients out of the in-flight set;</li>
 *   <li>suppresses the hard-bounced addresses;</li>
 *   <li>pauses the campaign if {@link PauseRules} say so, or on a fatal SMTP error;</li>
 *   <li>checkpoints the counters — never before the results they count.</li>
 * </ol>
 * The in-flight row found held by another run, or the checkpoint finding the lease lost, roll the
 * transaction back: a zombie run writes nothing under the lease again, and the workers it feeds are
 * stopped at their next mark. From then on its flushes write only the outcomes of rows its successor
 * left unknown in its name ({@link LostLeaseResults}). A flush that fails on the database keeps its
 * results for the next one.
 *
 * <p>Only flushes write the in-flight set, one at a time, so {@link #inFlight} here is what the
 * table holds once each transaction commits.
 *
 * <p>Over 250 lines as one piece: the order of one flush's writes (marks, outcomes, the in-flight set,
 * suppressions, pause, checkpoint) is what the crash guarantee rests on, and it reads as one sequence.
 */
public final class ResultFlusher {

    private static final String LEASE_LOST = "this run no longer holds its recipients (its lease was lost)";

    private final RunScope run;
    private final ResultBuffer buffer;
    private final Checkpoint checkpoint;
    private final PauseRules rules;
    private final DailyQuota quota;
    private final LostLeaseResults afterLeaseLost;
    /** Why the last results' transaction failed, while its results wait in the buffer; null once written. */
    private volatile String unwritten;
    /** Marked and not yet recorded, as the run's in-flight row holds them after the last commit. */
    private SortedSet<Long> inFlight = new TreeSet<>();
    /** Which event types the run's results are written as events of: read at its first flush. */
    private final TakenTypes takenTypes = new TakenTypes();

    public ResultFlusher(RunScope run, ResultBuffer buffer, Checkpoint checkpoint, PauseRules rules, DailyQuota quota) {
        this.run = run;
        this.buffer = buffer;
        this.checkpoint = checkpoint;
        this.rules = rules;
        this.quota = quota;
        this.afterLeaseLost = new LostLeaseResults(run, buffer, quota);
    }

    /** Called by the flush thread: flushes when asked to, when results waited long enough, or when the workers need marks. */
    public void flushIfDue() throws SQLException {
        if (buffer.flushDue()) {
            flush();
        }
    }

    /**
     * Writes the marks the workers wait for, then the buffered results. Only the results' part
     * holds the counters ({@link Checkpoint#exclusive}, as claims do): the marks change no counter,
     * and a batch's first marks need not wait for the claim of the next batch, made at the same
     * moment. The buffer is locked only to take the
     * results out, never during the round trip, so the SMTP threads keep adding results meanwhile.
     *
     * <p>One flush at a time: the run's final flush may start while a pass of the flush thread is
     * still under way (stopping it waits a few seconds, a stalled database may take longer), and
     * both would otherwise write the in-flight row from the same {@link #inFlight} and lose marks.
     */
    public synchronized void flush() throws SQLException {
        Optional<InFlightMarking> marker = buffer.startFlush();
        if (checkpoint.isLeaseLost()) {
            marker.ifPresent(m -> m.fail(LEASE_LOST));
            afterLeaseLost.flush();
            return;
        }
        // The workers wait for the marks, not for the results: marks first, in a short transaction
        // of their own (in one with the results the SMTP workers spent about a quarter of their
        // time waiting for marks). The results are
        // taken after the marks commit: a recipient handed back meanwhile, marked by this flush,
        // has its release written after its mark, which puts it back in the queue. A crash between
        // the two finds the new marks and the results waiting here both unrecorded, so the marks
        // get the room one flush leaves beside those results.
        int room = run.settings().flush().every() - buffer.waiting();
        Optional<Marks> marks = marker.flatMap(m -> m.take(room));
        if (marks.isPresent() && unwritten != null) {
            // No marks while results a flush could not write are in the buffer. The marks commit
            // on their own, so a database that takes them and refuses the results (connections
            // killed between the two) would let the workers send on, mark after mark, leaving ever
            // more sent recipients unrecorded: past the crash bound of the connections plus one
            // flush (ResultsRefusedTest). The batch stops; the run marks again once they are written.
            marker.get().fail("could not record results: " + unwritten);
        } else if (marks.isPresent() && !mark(marker.get(), marks.get())) {
            afterLeaseLost.flush();
            return;
        }
        boolean wrote = checkpoint.exclusive(this::flushResults);
        if (checkpoint.isLeaseLost()) {
            afterLeaseLost.flush();
            return;
        }
        if (wrote && marker.isPresent() && marker.get().wanted()) {
            // Marks still wanted, held back for want of room: the results just written made some.
            buffer.requestFlush();
        }
    }

    /** The results' transaction; true when it wrote results. */
    private boolean flushResults() throws SQLException {
        if (checkpoint.isLeaseLost()) {
            return false;
        }
        Taken t = buffer.take();
        SendCounters next = checkpoint.counters().plus(t.tally(), t.window().stored());
        Optional<String> pause = checkpoint.pausedFor().isPresent() ? Optional.empty()
                : t.fatal().or(() -> rules.reasonToPause(t.window(), next));
        if (!t.hasResults() && pause.isEmpty()) {
            return false;
        }
        SortedSet<Long> left = new TreeSet<>(inFlight);
        t.outcomes().forEach(o -> left.remove(o.recipientId()));
        boolean committed;
        try {
            committed = write(t, next, pause, left);
        } catch (SQLException | RuntimeException e) {
            buffer.restore(t);   // nothing was written: keep the results for the next flush
            unwritten = e.getMessage();
            throw e;
        }
        if (!committed) {
            // Kept for the writes a run without its lease may still make (LostLeaseResults).
            buffer.restore(t);
            checkpoint.markLeaseLost();
            return false;
        }
        unwritten = null;
        inFlight = left;
        // Results accepted during the round trip are still in the buffer: they go into the next
        // flush, on top of these counters with the failure window as it is now.
        checkpoint.committed(next.withRecent(buffer.recent()));
        pause.ifPresent(checkpoint::paused);
        tell(t.outcomes());
        return t.hasResults();
    }

    /**
     * Commits {@code marks} and tells {@code marker}; false when the run must write nothing more
     * (this run lost its lease or its in-flight row).
     */
    private boolean mark(InFlightMarking marker, Marks marks) throws SQLException {
        SortedSet<Long> next = new TreeSet<>(inFlight);
        next.addAll(marks.ids());
        boolean marked;
        try {
            marked = writeMarks(next);
        } catch (SQLException | RuntimeException e) {
            marker.fail("could not mark recipients in flight: " + e.getMessage());
            throw e;
        }
        if (!marked) {
            marker.fail(LEASE_LOST);
            checkpoint.markLeaseLost();
            return false;
        }
        inFlight = next;
        marker.committed(marks);
        return true;
    }

    /** Counts what one committed flush recorded, by outcome (a rolled-back flush counts nothing). */
    private void tell(List<Outcome> outcomes) {
        long sent = 0;
        long failed = 0;
        long retried = 0;
        long released = 0;
        for (Outcome o : outcomes) {
            if (o instanceof Outcome.Sent) {
                sent++;
            } else if (o instanceof Outcome.Failed) {
                failed++;
            } else if (o instanceof Outcome.Retry) {
                retried++;
            } else {
                released++;
            }
        }
        SendEvents events = run.events();
        long id = run.campaignId();
        if (sent > 0) {
            events.messages(id, SendEvents.Outcome.SENT, sent);
        }
        if (failed > 0) {
            events.messages(id, SendEvents.Outcome.FAILED, failed);
        }
        if (retried > 0) {
            events.messages(id, SendEvents.Outcome.RETRIED, retried);
        }
        if (released > 0) {
            events.messages(id, SendEvents.Outcome.RELEASED, released);
        }
        tellByRelay(events, outcomes);
    }

    /** The same per relay, for the outcomes of attempts a relay took. */
    private static void tellByRelay(SendEvents events, List<Outcome> outcomes) {
        java.util.Map<String, long[]> byRelay = new java.util.HashMap<>();
        for (Outcome o : outcomes) {
            String relay = o instanceof Outcome.Sent s ? s.relay() : o instanceof Outcome.Failed f ? f.relay()
                    : o instanceof Outcome.Retry r ? r.relay() : null;
            if (relay != null) {
                long[] n = byRelay.computeIfAbsent(relay, k -> new long[3]);
                n[o instanceof Outcome.Sent ? 0 : o instanceof Outcome.Failed ? 1 : 2]++;
            }
        }
        byRelay.forEach((relay, n) -> {
            if (n[0] > 0) {
                events.relayMessages(relay, SendEvents.Outcome.SENT, n[0]);
            }
            if (n[1] > 0) {
                events.relayMessages(relay, SendEvents.Outcome.FAILED, n[1]);
            }
            if (n[2] > 0) {
                events.relayMessages(relay, SendEvents.Outcome.RETRIED, n[2]);
            }
        });
    }

    /**
     * Marks alone, fenced by the task's lease: the in-flight set with the new ones, and nothing of
     * the recipients' rows. The counters do not change, so the metadata is not written again (half
     * the flush thread's JSON work and a smaller write of the task row). The lease first, as the
     * run that takes a task over locks it: the two wait for each other instead of deadlocking.
     * False when it rolled back: this run lost its lease, or its in-flight row.
     */
    private boolean writeMarks(SortedSet<Long> next) throws SQLException {
        Instant now = run.clock().instant();
        Tables tables = run.tables();
        return tables.inTransaction(c -> {
            if (!checkpoint.fence(c) || !tables.inFlight().write(c, run.campaignId(), run.runToken(), next, now)) {
                c.rollback();
                return false;
            }
            return true;
        });
    }

    /**
     * The results' transaction; false when it rolled back because this run no longer holds its
     * recipients (their rows are gone, or its in-flight row or lease was taken over).
     */
    private boolean write(Taken t, SendCounters next, Optional<String> pause, SortedSet<Long> left) throws SQLException {
        Instant now = run.clock().instant();
        Tables tables = run.tables();
        return tables.inTransaction(c -> {
            long attempts = t.outcomes().stream().filter(o -> !(o instanceof Outcome.Released)).count();
            if (tables.results().record(c, run.campaignId(), t.outcomes(), now, takenTypes) < attempts
                    || (left.size() != inFlight.size() && !tables.inFlight().write(c, run.campaignId(), run.runToken(), left, now))) {
                c.rollback();
                return false;
            }
            // Handed back unsent: their slots of the daily cap go back to the relay and day they were counted for.
            quota.giveBack(c, t.outcomes().stream().filter(o -> o instanceof Outcome.Released)
                    .map(Outcome::recipientId).toList());
            tables.suppressions().add(c, t.suppressions(), now);
            if (pause.isPresent()) {
                tables.campaigns().transition(c, run.campaignId(), CampaignTransition.SELF_PAUSE, pause.get(), now);
            }
            if (!checkpoint.write(c, next)) {
                c.rollback();
                return false;
            }
            return true;
        });
    }
}
