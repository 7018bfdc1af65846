package dev.mailrun.campaign.send.record;

import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.send.pace.Pacing;
import dev.mailrun.campaign.send.scope.RunScope;
import dev.mailrun.campaign.send.scope.SendCounters.Tally;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.Outcome;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.mail.smtp.SendResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the SMTP worker threads add their results to: each result becomes the recipient's outcome
 * (sent, retry at a time the {@link RetryPolicy} chooses, failed, or back to the queue), a hard
 * bounce also a suppression, and every attempt a mark in the {@link FailureWindow}. The workers
 * never wait for the database: after {@code flush().every()} results they ask the flush thread to
 * {@link #take} them, and a flush is also due when the oldest waited {@code flush().interval()}.
 *
 * <p>A result may also show that the run must stop: the relay unreachable, a fatal SMTP error, or
 * a recipient that could not be marked in flight.
 *
 * <p>Over 250 lines as one piece: every result the workers add passes one lock that keeps the outcome,
 * the suppression, the failure window and the decision to stop consistent with each other.
 */
public final class ResultBuffer {

    /** The relay of a result no relay gave (a recipient handed back untried): recorded nowhere. */
    private static final String NO_RELAY = "";

    /** The results taken out for one flush, with the failure window and fatal error as they were then. */
    record Taken(List<Outcome> outcomes, List<SuppressionTable.Entry> suppressions, Tally tally, Instant oldest,
                 FailureWindow window, Optional<String> fatal) {

        boolean hasResults() {
            return !outcomes.isEmpty() || !suppressions.isEmpty();
        }
    }

    private final long campaignId;
    private final RetryPolicy retry;
    private final Clock clock;
    private final SendSettings settings;
    private final Runnable flushRequest;
    private final Map<Long, ClaimedRecipient> held = new ConcurrentHashMap<>();
    private final FailureWindow window;

    private final List<Outcome> outcomes = new ArrayList<>();
    private final List<SuppressionTable.Entry> suppressions = new ArrayList<>();
    private Tally tally = Tally.NONE;
    private Instant oldest;
    private long attempted;
    private boolean flushRequested;
    private InFlightMarking marker;
    private boolean markerFailed;
    private Optional<String> fatal = Optional.empty();
    private Optional<String> unreachable = Optional.empty();

    /** @param flushRequest asks the run's flush thread for a flush soon */
    private final SendEvents events;

    /** Slows the relay or a domain group down for a "too fast" reply. */
    private final Pacing pacing;
    private long throttled;

    public ResultBuffer(RunScope run, RetryPolicy retry, FailureWindow window, Runnable flushRequest, Pacing pacing) {
        this.pacing = pacing;
        this.campaignId = run.campaignId();
        this.events = run.events();
        this.clock = run.clock();
        this.settings = run.settings();
        this.retry = retry;
        this.window = window;
        this.flushRequest = flushRequest;
    }

    /** Recipients about to be sent (or handed back), so results can be matched to their attempts. */
    public void hold(List<ClaimedRecipient> recipients) {
        recipients.forEach(r -> held.put(r.id(), r));
    }

    /**
     * The recipients the next claim must leave out, since neither a claim nor a mark writes to
     * their rows: those held here without a result (the batch being sent, marked or not), and those
     * with a result not written yet, which are still waiting in the table. A recipient handed back
     * and claimed again before the flush wrote its release would otherwise be sent twice at once;
     * one sent and claimed again before its result was written, sent twice. Claims and the flushes'
     * results are written one at a time, so none of these is being written meanwhile.
     */
    public synchronized List<Long> notToClaim() {
        List<Long> ids = new ArrayList<>(held.size() + outcomes.size());
        ids.addAll(held.keySet());
        for (Outcome o : outcomes) {
            ids.add(o.recipientId());
        }
        return ids;
    }

    /**
     * True while some recipient goes back to the queue unsent (handed back, not attempted) and its
     * release is not flushed yet: a claim leaves it out ({@link #notToClaim}), so a claim finding
     * none of a kind is not proof that none are left.
     */
    public synchronized boolean releasing() {
        return outcomes.stream().anyMatch(o -> o instanceof Outcome.Released);
    }

    /** True while {@code recipientId} is held here without a result. */
    public boolean awaitsResult(long recipientId) {
        return held.containsKey(recipientId);
    }

    /**
     * Recipients claimed but not sent: back to the queue with the next flush, no attempt charged.
     * No relay tried them, so none is named: a release records no relay and tells no reply.
     */
    public void handBack(List<ClaimedRecipient> recipients) {
        hold(recipients);
        recipients.forEach(r -> accept(new SendResult.NotAttempted(r.id()), NO_RELAY));
    }

    /** The marker of the batch about to be sent: its marks are written by the next flushes, starting now. */
    public void watch(InFlightMarking batchMarker) {
        synchronized (this) {
            this.marker = batchMarker;
        }
        requestFlush();
    }

    /** Asks the flush thread for a flush soon (results or marks are waiting). */
    public void requestFlush() {
        synchronized (this) {
            flushRequested = true;
        }
        flushRequest.run();
    }

    /** The relay's answer for the metrics: 250 for a sent message, the reply code of a failure, none when nothing answered. */
    private void tellReply(SendResult result, String relay) {
        if (result instanceof SendResult.Sent) {
            events.smtpReply(relay, OptionalInt.of(250));
        } else if (result instanceof SendResult.Transient t) {
            events.smtpReply(relay, t.code() == 0 ? OptionalInt.empty() : OptionalInt.of(t.code()));
        } else if (result instanceof SendResult.Throttled t) {
            events.smtpReply(relay, OptionalInt.of(t.code()));
        } else if (result instanceof SendResult.Permanent p) {
            events.smtpReply(relay, p.code() == 0 ? OptionalInt.empty() : OptionalInt.of(p.code()));
        } else if (result instanceof SendResult.Unreachable || result instanceof SendResult.Fatal) {
            events.smtpReply(relay, OptionalInt.empty());
        }
    }

    /** The result of an attempt through the relay named {@code via}, which the recipient's row records. */
    public synchronized void accept(SendResult result, String via) {
        tellReply(result, via);
        Instant now = clock.instant();
        ClaimedRecipient r = held.remove(result.key());
        if (r == null) {
            throw new IllegalStateException("a send result for recipient " + result.key() + " that this run does not hold");
        }
        pacing.domains().settled(r.email(), result instanceof SendResult.NotAttempted || result instanceof SendResult.Fatal
                || result instanceof SendResult.Unreachable || result instanceof SendResult.Throttled);
        if (result instanceof SendResult.Throttled t) {
            if (pacing.slowDown(r.email(), t, via)) {
                // Only the pace was wrong: back to the queue with no attempt charged, and not a
                // failure for the breaker, which must keep pausing for what is really broken.
                outcomes.add(new Outcome.Released(r.id()));
                tally = tally.plus(Tally.RELEASED);
                throttled++;
                events.tooFast(pacing.nameFor(t.scope(), r.email(), via).orElse(""));
                attempted++;
                requestFlushIfFull();
                return;
            }
            // Nothing to slow down (a domain in no group, a relay without a rate): an ordinary deferral.
            result = new SendResult.Transient(t.key(), t.code(), t.text(), Optional.empty());
        }
        if (result instanceof SendResult.Sent s) {
            outcomes.add(new Outcome.Sent(r.id(), s.messageId(), s.at(), via));
            tally = tally.plus(Tally.SENT);
            window.record(false);
        } else if (result instanceof SendResult.Transient t) {
            Optional<Instant> next = retry.nextAttempt(r.attempts(), now, t.retryAfter());
            String error = smtpError(t.code(), t.text());
            if (next.isPresent()) {
                outcomes.add(new Outcome.Retry(r.id(), next.get(), t.code(), error, via));
                tally = tally.plus(Tally.RETRIED);
            } else {
                outcomes.add(new Outcome.Failed(r.id(), t.code(), error + " (gave up after " + (r.attempts() + 1) + " attempts)", via));
                tally = tally.plus(Tally.FAILED);
            }
            window.record(true);
        } else if (result instanceof SendResult.Permanent p) {
            outcomes.add(new Outcome.Failed(r.id(), p.code(), smtpError(p.code(), p.text()), via));
            tally = tally.plus(p.hardBounce() ? Tally.HARD_BOUNCE : Tally.FAILED);
            window.record(true);
            if (p.hardBounce()) {
                suppressions.add(new SuppressionTable.Entry(EmailAddress.of(r.email()).suppressionKey(),
                        SuppressionReason.HARD_BOUNCE, "smtp " + p.code() + " in campaign " + campaignId));
            }
        } else {
            outcomes.add(new Outcome.Released(r.id()));
            tally = tally.plus(Tally.RELEASED);
            stopIfNeeded(result);
        }
        if (!(result instanceof SendResult.Fatal || result instanceof SendResult.NotAttempted
                || result instanceof SendResult.Unreachable)) {
            attempted++;
        }
        if (oldest == null) {
            oldest = now;
        }
        requestFlushIfFull();
    }

    private void requestFlushIfFull() {
        if (oldest == null) {
            oldest = clock.instant();
        }
        if (outcomes.size() >= settings.flush().every() && !flushRequested) {
            // The SMTP threads never wait for the database: the run's flush thread writes.
            flushRequested = true;
            flushRequest.run();
        }
    }

    /** Recipients sent back to the queue because a reply said "too fast". */
    public synchronized long throttled() {
        return throttled;
    }

    /** A recipient released without an attempt may show that the run must stop. */
    private void stopIfNeeded(SendResult result) {
        if (result instanceof SendResult.Unreachable u) {
            // Nothing reached the relay: back to the queue with no attempt charged, and this run
            // stops (the next tick tries again) instead of claiming batch after batch.
            unreachable = unreachable.or(() -> Optional.of(u.text()));
        } else if (result instanceof SendResult.Fatal f) {
            if (marker != null && marker.failed()) {
                // Not the relay's fault: the database or the lease is gone. Stop without pausing.
                markerFailed = true;
            } else {
                fatal = fatal.or(() -> Optional.of(f.reason()));
            }
        }
    }

    /** True when a flush was asked for, the oldest unwritten result is old enough, or the workers wait for marks. */
    boolean flushDue() {
        boolean due;
        InFlightMarking m;
        synchronized (this) {
            m = marker;
            due = flushRequested || (oldest != null
                    && !Duration.between(oldest, clock.instant()).minus(settings.flush().interval()).isNegative());
        }
        return due || (m != null && m.wanted());
    }

    /** Starts a flush: the request is answered; the marker of the batch being sent, if any. */
    synchronized Optional<InFlightMarking> startFlush() {
        flushRequested = false;
        return Optional.ofNullable(marker);
    }

    /** How many results wait to be written. */
    synchronized int waiting() {
        return outcomes.size();
    }

    /** Takes every buffered result out for a flush; {@link #restore} puts them back if it fails. */
    synchronized Taken take() {
        Taken t = new Taken(List.copyOf(outcomes), List.copyOf(suppressions), tally, oldest, window.snapshot(), fatal);
        outcomes.clear();
        suppressions.clear();
        tally = Tally.NONE;
        oldest = null;
        return t;
    }

    /** Nothing of {@code t} was written: its results go first into the next flush. */
    synchronized void restore(Taken t) {
        outcomes.addAll(0, t.outcomes());
        suppressions.addAll(0, t.suppressions());
        tally = tally.plus(t.tally());
        if (t.oldest() != null && (oldest == null || t.oldest().isBefore(oldest))) {
            oldest = t.oldest();
        }
    }

    /** The failure window as it is now, as stored in the counters. */
    public synchronized String recent() {
        return window.stored();
    }

    /** Messages this run actually tried to send (not those handed back untried). */
    synchronized long attempted() {
        return attempted;
    }

    /**
     * Messages tried, and recipients held without a result yet (being sent, or about to be): what
     * grows by a batch's recipients that its connections took, as a batch ends while its last
     * messages are still on the wire, and shrinks by those that came back untried.
     */
    public synchronized long triedOrPending() {
        return attempted + held.size();
    }

    /** True once a result showed the run must stop: a fatal error, the relay unreachable, or marking failed. */
    public synchronized boolean mustStop() {
        return fatal.isPresent() || unreachable.isPresent() || markerFailed;
    }

    public synchronized Optional<String> unreachable() {
        return unreachable;
    }

    /** True once a recipient could not be marked in flight: the database or the lease is gone. */
    public synchronized boolean markingFailed() {
        return markerFailed;
    }

    private static String smtpError(int code, String text) {
        return code == 0 ? text : code + " " + text;
    }
}
