package dev.mailrun.campaign.send;

import dev.mailrun.campaign.model.CampaignTransition;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.Outcome;
import dev.mailrun.campaign.store.RecipientTable;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.smtp.SendResult;
import dev.mailrun.scheduler.RunContext;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * Collects send results from the SMTP workers and writes them back in batches: after
 * {@code flushEvery} results or {@code flushInterval}, whichever comes first, so a crash leaves only
 * a small window of recipients whose fate is unknown.
 *
 * <p>Each flush is one transaction: the recipients' outcomes (one batched statement per kind), the
 * next recipients the {@link SendingMarker} wants marked as sending, the suppression of
 * hard-bounced addresses, the campaign pause if the failure rate crossed its limit, and the
 * checkpoint of the counters into the task metadata — never before the results it counts.
 * If the checkpoint finds the lease lost, the whole flush rolls back: a zombie run writes nothing.
 */
final class ResultWriter {

    static final String PROGRESS_KEY = "progress";
    private static final String LEASE_LOST = "this run no longer holds its recipients (its lease was lost)";

    private final DataSource dataSource;
    private final RecipientTable queue;
    private final SuppressionTable suppressions;
    private final CampaignTable campaigns;
    private final RetryPolicy retry;
    private final RunContext run;
    private final Clock clock;
    private final SendSettings settings;
    private final Map<Long, ClaimedRecipient> held = new ConcurrentHashMap<>();
    private final FailureWindow window;

    private final List<Outcome> pending = new ArrayList<>();
    private final List<SuppressionTable.Entry> pendingSuppressions = new ArrayList<>();
    private long pSent, pFailed, pRetried, pReleased, pHard;
    private Instant oldestPending;
    private Progress progress;
    private Optional<String> fatal = Optional.empty();
    private Optional<String> pausedFor = Optional.empty();
    private Optional<String> unreachable = Optional.empty();
    private SendingMarker marker;
    private boolean markerFailed;
    private boolean leaseLost;
    private long attempted;
    private boolean flushRequested;
    private final Object flushLock = new Object();
    private final Runnable flushRequest;

    ResultWriter(DataSource dataSource, RecipientTable queue, SuppressionTable suppressions, CampaignTable campaigns,
                 RetryPolicy retry, RunContext run, Clock clock, SendSettings settings, Progress progress,
                 Runnable flushRequest) {
        this.flushRequest = flushRequest;
        this.dataSource = dataSource;
        this.queue = queue;
        this.suppressions = suppressions;
        this.campaigns = campaigns;
        this.retry = retry;
        this.run = run;
        this.clock = clock;
        this.settings = settings;
        this.progress = progress;
        FailureWindow stored = new FailureWindow(settings.failureWindow(), progress.recent());
        // A run only sends for a running campaign. If the stored window is over the limit, the
        // campaign was paused for it and an operator has since resumed it: start a fresh window,
        // or it would pause again before a single new attempt.
        this.window = stored.isFull() && stored.failureRate() > settings.pauseOnFailureRate()
                ? new FailureWindow(settings.failureWindow(), "") : stored;
        // The same for the hard-bounce rate: counted again from the resume on.
        if (hardBounceRate(progress).isPresent()) {
            this.progress = progress.rebased();
        }
    }

    /** The marker of the batch about to be sent: its marks are written by the next flushes, starting now. */
    void watch(SendingMarker marker) {
        synchronized (this) {
            this.marker = marker;
        }
        requestFlush();
    }

    /** Asks the flush thread for a flush soon (results or marks are waiting). */
    void requestFlush() {
        synchronized (this) {
            flushRequested = true;
        }
        flushRequest.run();
    }

    /** Recipients of the batch about to be sent, so results can be matched to their attempts. */
    void hold(List<ClaimedRecipient> recipients) {
        recipients.forEach(r -> held.put(r.id(), r));
    }

    void accept(SendResult result) {
        synchronized (this) {
            acceptLocked(result);
        }
    }

    private void acceptLocked(SendResult result) {
        Instant now = clock.instant();
        ClaimedRecipient r = held.remove(result.key());
        if (r == null) {
            throw new IllegalStateException("a send result for recipient " + result.key() + " that this run does not hold");
        }
        if (result instanceof SendResult.Sent s) {
            pending.add(new Outcome.Sent(r.id(), s.messageId(), s.at()));
            pSent++;
            window.record(false);
        } else if (result instanceof SendResult.Transient t) {
            Optional<Instant> next = retry.nextAttempt(r.attempts(), now, t.retryAfter());
            String error = smtpError(t.code(), t.text());
            if (next.isPresent()) {
                pending.add(new Outcome.Retry(r.id(), next.get(), t.code(), error));
                pRetried++;
            } else {
                pending.add(new Outcome.Failed(r.id(), t.code(), error + " (gave up after " + (r.attempts() + 1) + " attempts)"));
                pFailed++;
            }
            window.record(true);
        } else if (result instanceof SendResult.Permanent p) {
            pending.add(new Outcome.Failed(r.id(), p.code(), smtpError(p.code(), p.text())));
            pFailed++;
            window.record(true);
            if (p.hardBounce()) {
                pHard++;
                pendingSuppressions.add(new SuppressionTable.Entry(EmailAddress.of(r.email()).suppressionKey(),
                        SuppressionReason.HARD_BOUNCE, "smtp " + p.code() + " in campaign " + progress.campaignId()));
            }
        } else if (result instanceof SendResult.Unreachable u) {
            // Nothing reached the relay: back to the queue with no attempt charged, and this run
            // stops (the next tick tries again) instead of claiming batch after batch.
            pending.add(new Outcome.Released(r.id()));
            pReleased++;
            unreachable = unreachable.or(() -> Optional.of(u.text()));
        } else if (result instanceof SendResult.Fatal f) {
            pending.add(new Outcome.Released(r.id()));
            pReleased++;
            if (marker != null && marker.failed()) {
                // Not the relay's fault: the database or the lease is gone. Stop without pausing.
                markerFailed = true;
            } else {
                fatal = fatal.or(() -> Optional.of(f.reason()));
            }
        } else {
            pending.add(new Outcome.Released(r.id()));
            pReleased++;
        }
        if (!(result instanceof SendResult.Fatal || result instanceof SendResult.NotAttempted
                || result instanceof SendResult.Unreachable)) {
            attempted++;
        }
        if (oldestPending == null) {
            oldestPending = now;
        }
        if (pending.size() >= settings.flushEvery() && !flushRequested) {
            // The SMTP threads never wait for the database: the run's flush thread writes.
            flushRequested = true;
            flushRequest.run();
        }
    }

    /** Called by the flush thread: flushes when asked to or when the oldest unwritten result is old enough. */
    void flushIfDue() throws SQLException {
        boolean due;
        SendingMarker m;
        synchronized (this) {
            m = marker;
            due = flushRequested || (oldestPending != null
                    && !Duration.between(oldestPending, clock.instant()).minus(settings.flushInterval()).isNegative());
        }
        due = due || (m != null && m.wanted());
        if (due) {
            flush();
        }
    }

    /** The results taken out of the buffer for one flush, and what they make of the counters. */
    private record Taken(List<Outcome> outcomes, List<SuppressionTable.Entry> suppressions, long sent, long failed,
                         long retried, long released, long hard, Instant oldest, Progress next, Optional<String> pause) {}

    /**
     * Writes the buffered results. Flushes are serialised by {@code flushLock}; the buffer's lock is
     * held only to take the results out and to record the outcome, never during the database
     * round trip, so the SMTP threads keep adding results meanwhile.
     */
    void flush() throws SQLException {
        synchronized (flushLock) {
            Taken t;
            SendingMarker m;
            synchronized (this) {
                flushRequested = false;
                m = marker;
                if (leaseLost) {
                    if (m != null) {
                        m.fail(LEASE_LOST);
                    }
                    return;
                }
                Progress next = progress.plus(pSent, pFailed, pRetried, pReleased, 0, pHard, window.stored());
                Optional<String> pause = pausedFor.isPresent() ? Optional.empty()
                        : fatal.isPresent() ? fatal
                        : failureRateExceeded() ? Optional.of(String.format(java.util.Locale.ROOT,
                                "%.1f%% of the last %d attempts failed (limit %.1f%%)",
                                window.failureRate() * 100, window.attempts(), settings.pauseOnFailureRate() * 100))
                        : hardBounceRate(next);
                t = new Taken(new ArrayList<>(pending), new ArrayList<>(pendingSuppressions), pSent, pFailed, pRetried,
                        pReleased, pHard, oldestPending, next, pause);
                pending.clear();
                pendingSuppressions.clear();
                pSent = pFailed = pRetried = pReleased = pHard = 0;
                oldestPending = null;
            }
            // Marks for the workers ride on this flush: one commit for results, marks and checkpoint.
            Optional<SendingMarker.Marks> marks = m == null ? Optional.empty() : m.take();
            boolean results = !t.outcomes().isEmpty() || !t.suppressions().isEmpty();
            if (!results && marks.isEmpty() && t.pause().isEmpty()) {
                return;
            }
            Instant now = clock.instant();
            boolean committed;
            try {
                committed = Transactions.inTransaction(dataSource, c -> {
                    // Marks first: a batch cut short hands back untried recipients that may have
                    // been asked to be marked; recorded after, they end up back in the queue.
                    if (marks.isPresent() && queue.markSending(c, run.runToken(), marks.get().ids(), now)
                            < marks.get().ids().size()) {
                        c.rollback();
                        return false;
                    }
                    int changed = queue.record(c, run.runToken(), t.outcomes(), now);
                    if (changed < t.outcomes().size()) {
                        c.rollback();
                        return false;
                    }
                    suppressions.add(c, t.suppressions(), now);
                    if (t.pause().isPresent()) {
                        campaigns.transition(c, t.next().campaignId(), CampaignTransition.SELF_PAUSE, t.pause().get(), now);
                    }
                    run.metadata().putValue(PROGRESS_KEY, t.next());
                    if (!run.checkpoint(c)) {
                        c.rollback();
                        return false;
                    }
                    return true;
                });
            } catch (SQLException | RuntimeException e) {
                restore(t);   // nothing was written: keep the results for the next flush
                marks.ifPresent(x -> m.fail("could not mark recipients as sending: " + e.getMessage()));
                throw e;
            }
            if (!committed) {
                marks.ifPresent(x -> m.fail(LEASE_LOST));
            }
            synchronized (this) {
                if (!committed) {
                    leaseLost = true;
                    return;
                }
                // Results accepted during the round trip counted from the old progress; they are
                // still in the buffer and go into the next flush on top of this one.
                progress = t.next().withRecent(window.stored());
                t.pause().ifPresent(reason -> pausedFor = Optional.of(reason));
            }
            marks.ifPresent(m::committed);
        }
    }

    private synchronized void restore(Taken t) {
        pending.addAll(0, t.outcomes());
        pendingSuppressions.addAll(0, t.suppressions());
        pSent += t.sent();
        pFailed += t.failed();
        pRetried += t.retried();
        pReleased += t.released();
        pHard += t.hard();
        if (t.oldest() != null && (oldestPending == null || t.oldest().isBefore(oldestPending))) {
            oldestPending = t.oldest();
        }
    }

    /** Hard bounces refused at SMTP time count against the campaign's bounce rate, like bounces read back later. */
    private Optional<String> hardBounceRate(Progress p) {
        long attempts = p.attemptsForRate();
        if (attempts < settings.hardBounceMinSample() || attempts == 0) {
            return Optional.empty();
        }
        double rate = (double) p.hardBouncesForRate() / attempts;
        return rate > settings.hardBounceRate() ? Optional.of(String.format(java.util.Locale.ROOT,
                "hard-bounce rate %.1f%% over %d sends exceeds %.1f%%", rate * 100, attempts,
                settings.hardBounceRate() * 100)) : Optional.empty();
    }

    private boolean failureRateExceeded() {
        return window.isFull() && window.failureRate() > settings.pauseOnFailureRate();
    }

    /**
     * Checkpoints, inside the claim's transaction, the recipients that claim found suppressed, so
     * the counters match the table even if the run dies right after the claim. Call within
     * {@link #exclusive}, so that no flush writes the counters between this checkpoint and
     * {@link #claimCommitted} (call that once the transaction commits). Results not yet flushed may
     * be pending: they are not in the checkpointed counters, nor in the table. False when the lease
     * is lost.
     */
    boolean checkpointClaim(Connection c, int suppressed) throws SQLException {
        synchronized (flushLock) {
            synchronized (this) {
                return checkpointClaimLocked(c, suppressed);
            }
        }
    }

    private boolean checkpointClaimLocked(Connection c, int suppressed) throws SQLException {
        Progress next = progress.plus(0, 0, 0, 0, suppressed, 0, window.stored());
        run.metadata().putValue(PROGRESS_KEY, next);
        if (!run.checkpoint(c)) {
            leaseLost = true;
            return false;
        }
        return true;
    }

    /** Runs {@code work} with flushes held off (a claim that checkpoints its own counters). */
    <T> T exclusive(SqlWork<T> work) throws SQLException {
        synchronized (flushLock) {
            return work.run();
        }
    }

    @FunctionalInterface
    interface SqlWork<T> {
        T run() throws SQLException;
    }

    void claimCommitted(int suppressed) {
        synchronized (flushLock) {
            synchronized (this) {
                progress = progress.plus(0, 0, 0, 0, suppressed, 0, window.stored());
            }
        }
    }

    /** Messages this run actually tried to send (not those handed back untried). */
    synchronized long attempted() {
        return attempted;
    }

    synchronized Progress progress() {
        return progress;
    }

    /** True once the campaign was paused (fatal error or failure rate), the relay was unreachable, or the lease was lost. */
    synchronized boolean mustStop() {
        return pausedFor.isPresent() || leaseLost || fatal.isPresent() || unreachable.isPresent() || markerFailed;
    }

    synchronized Optional<String> unreachable() {
        return unreachable;
    }

    synchronized boolean leaseLost() {
        return leaseLost;
    }

    synchronized Optional<String> pausedFor() {
        return pausedFor;
    }

    private static String smtpError(int code, String text) {
        return code == 0 ? text : code + " " + text;
    }
}
