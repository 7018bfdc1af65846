package dev.mailrun.campaign.send;

import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.claim.ClaimAhead;
import dev.mailrun.campaign.send.claim.Claimer;
import dev.mailrun.campaign.send.deliver.Messages;
import dev.mailrun.campaign.send.deliver.RouteSender;
import dev.mailrun.campaign.send.pace.PaceSummary;
import dev.mailrun.campaign.send.pace.Pacing;
import dev.mailrun.campaign.send.pace.RelayRate;
import dev.mailrun.campaign.send.pace.RelayShare;
import dev.mailrun.campaign.send.pace.RouteRate;
import dev.mailrun.campaign.send.policy.DailyQuota;
import dev.mailrun.campaign.send.record.Checkpoint;
import dev.mailrun.campaign.send.record.PauseRules;
import dev.mailrun.campaign.send.record.ResultBuffer;
import dev.mailrun.campaign.send.record.ResultFlusher;
import dev.mailrun.campaign.send.record.RetryPolicy;
import dev.mailrun.campaign.send.record.RunSeconds;
import dev.mailrun.campaign.send.route.Relay;
import dev.mailrun.campaign.send.scope.CpuGauge;
import dev.mailrun.campaign.send.scope.RunScope;
import dev.mailrun.campaign.send.scope.SendCounters;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.send.scope.Tables;
import dev.mailrun.campaign.store.DailyCountTable;
import dev.mailrun.campaign.store.recipient.RecipientClaims;
import dev.mailrun.mail.smtp.SmtpPool;
import dev.mailrun.timebox.Algorithm;
import dev.mailrun.timebox.BatchFailedException;
import dev.mailrun.timebox.EstimatorState;
import dev.mailrun.timebox.RunCosts;
import dev.mailrun.timebox.Timebox;
import dev.mailrun.timebox.TimeboxConfig;
import dev.mailrun.timebox.TimeboxReport;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of one campaign, after {@link SendTask} found it running and its template compiled:
 * <ol>
 *   <li>takes its share of each relay of its route ({@link RouteSender}, {@link RelayShare}, {@link RelayRate});</li>
 *   <li>sends timeboxed batches until the deadline, the end of the queue or a reason to stop
 *       ({@link BatchSender}, claiming ahead with {@link ClaimAhead} and {@link Claimer}), while the
 *       {@link FlushThread} writes the results back ({@link ResultBuffer}, {@link ResultFlusher},
 *       {@link Checkpoint}), renews the relay shares and writes the run's seconds for status
 *       ({@link RunSeconds}: sending, waiting on the database, the worker's CPU);</li>
 *   <li>hands back what it claimed and did not send, flushes the rest, and settles
 *       ({@link RunEnd}, {@link RunSummary}).</li>
 * </ol>
 */
final class SendRun {

    private static final Logger log = LoggerFactory.getLogger(SendRun.class);

    private final RunScope run;
    private final SendDependencies deps;
    private final SendCounters startCounters;
    private final Pacing pacing;
    private final RouteSender route;
    private final Checkpoint checkpoint;
    private final ResultBuffer buffer;
    private final ResultFlusher flusher;
    private final FlushThread flushThread;
    private final ClaimAhead claimAhead;
    private final BatchSender sender;
    private final RunSeconds seconds;
    private final Instant deadline;
    private final DailyQuota quota;
    /** The route's configured rate, capped by the campaign's: what the run's window share is measured against. */
    private final double allowedRate;
    private final boolean testShareOnly;

    /** @param deadline the slot's deadline, or earlier: the end of the send window or the expiry */
    /**
     * @param messages      the run's messages, built once for the run (one factory per A/B variant)
     * @param testShareOnly claim only recipients given a variant: an A/B test's test share, before the pick
     * @param cpu           the worker's CPU, read once a second into the run's seconds
     */
    SendRun(RunScope run, SendDependencies deps, Messages messages, boolean testShareOnly, RelayRoute relayRoute,
            List<Relay> relays, Instant deadline, CpuGauge cpu) throws SQLException {
        this.run = run;
        this.deps = deps;
        this.deadline = deadline;
        this.testShareOnly = testShareOnly;
        // Counted per relay of the route: each relay has its own day's volume.
        this.allowedRate = RouteRate.configured(relayRoute, relays.stream()
                .collect(java.util.stream.Collectors.toMap(Relay::name, Relay::rate)), run.campaign().rateCap().orElse(0.0));
        this.quota = new DailyQuota(run.settings().dailyCap(), relayRoute.relays(), relayRoute.weights(),
                new DailyCountTable());
        long id = run.campaignId();
        PauseRules rules = new PauseRules(run.settings());
        SendCounters stored = run.ctx().metadata().get(SendCounters.METADATA_KEY, SendCounters.class)
                .orElse(SendCounters.start(id));
        this.startCounters = stored;
        this.pacing = Pacing.forRoute(run.settings(), relays, run.campaign().rateCap().orElse(0.0), run.clock());
        this.seconds = new RunSeconds(id, run.clock(), deps.timing().nanoTime(), cpu);
        this.route = new RouteSender(run, relayRoute, relays, deps.timing(), pacing, quota, seconds, deps.warm());
        this.checkpoint = new Checkpoint(run.ctx(), rules.countersAtStart(stored));
        this.flushThread = new FlushThread(id);
        RetryPolicy retry = new RetryPolicy(run.settings().maxAttempts(), run.settings().retryBase(), deps.random().get());
        this.buffer = new ResultBuffer(run, retry, rules.windowAtStart(stored), flushThread::request, pacing);
        this.flusher = new ResultFlusher(run, buffer, checkpoint, rules, quota);
        RecipientClaims claims = testShareOnly ? run.tables().claims().testShareOnly() : run.tables().claims();
        this.claimAhead = new ClaimAhead(new Claimer(run, checkpoint, buffer, quota, route::usable, pacing, claims), buffer,
                flushThread::flushNow, id, seconds);
        this.sender = new BatchSender(run, claimAhead, buffer, messages, pacing.domains());
    }

    void drain() throws Exception {
        Instant started = run.clock().instant();
        EstimatorState estimator = run.ctx().metadata().get(RunMemory.TIMEBOX_KEY, Map.class)
                .map(m -> EstimatorState.fromMap(castMap(m))).orElse(EstimatorState.initial());
        RunCosts costs = run.ctx().metadata().get(RunMemory.COSTS_KEY, Map.class)
                .map(m -> RunCosts.fromMap(castMap(m))).orElse(RunCosts.unknown());
        route.expect(RunMemory.perMessage(run.ctx()));
        try {
            route.join();
        } catch (SQLException | InterruptedException | RuntimeException e) {
            route.close();
            throw e;
        }
        // The timebox predicts with the route's rate, or, once only paced domains are left, with
        // what their caps allow: the batches stay sized to what will really be sent.
        Timebox timebox = new Timebox(run.clock(), timeboxConfig(pacing.predictedRate()), pacing::predictedRate,
                route::inFlight);
        flushThread.start(route, flusher, seconds, run.tables());
        TimeboxReport report;
        Instant sentBy;
        try {
            try {
                report = timebox.runUntil(deadline, budget -> sender.send(budget, route, this::mustStop),
                        Algorithm.PREDICTIVE, estimator, costs, () -> run.ctx().stopRequested() || mustStop());
                // The last batch's last messages: their results belong in the run's final flush.
                route.awaitSent();
                sentBy = run.clock().instant();
            } catch (BatchFailedException e) {
                report = e.partialReport();
                awaitSentQuietly();
                finish(report, costs, run.clock().instant());
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        } finally {
            awaitSentQuietly();
            claimAhead.shutdown();
            flushThread.stop();
            route.close();
        }
        finish(report, costs, sentBy.isBefore(report.ended()) ? report.ended() : sentBy);
        log.debug("Campaign {} run started {} ended {}", run.campaignId(), started, report.ended());
    }

    /** Waits for the messages still on the wire when the run already fails for another reason. */
    private void awaitSentQuietly() {
        try {
            route.awaitSent();
        } catch (RuntimeException e) {
            log.warn("Campaign {}: a sending thread failed while the run ended: {}", run.campaignId(), e.getMessage());
        }
    }

    /**
     * True once the campaign was paused (fatal error or failure rate), every relay of its route is
     * down with none to probe now, or the lease was lost. A relay whose back-off has passed does not
     * stop the run: the run's next batch probes it.
     */
    private boolean mustStop() {
        return checkpoint.pausedFor().isPresent() || checkpoint.isLeaseLost() || buffer.mustStop() || !route.sendable();
    }

    /**
     * @param sentBy when the run's last messages were done (never before the last batch ended), before
     *               the sessions are parked or closed: the shutdown the next run keeps free is
     *               measured from there, not from the last batch's end. The wait for messages still on
     *               the wire is the in-flight time every batch is already sized to leave before the
     *               deadline ({@link RouteSender#inFlight}); measured into the shutdown as well, it was
     *               kept free twice, and against a relay far away each run stopped one message's round
     *               trips early.
     */
    private void finish(TimeboxReport report, RunCosts costs, Instant sentBy) throws SQLException {
        claimAhead.handBack();
        flusher.flush();
        writeSeconds();
        if (report.batches() > 0) {
            // Shutdown: from the last messages' end to the end of the final flush, which the next run keeps free.
            Duration shutdown = Duration.between(sentBy, run.clock().instant());
            run.ctx().metadata().putValue(RunMemory.COSTS_KEY, costs.observe(report.startup(), shutdown).toMap());
        }
        Map<String, Duration> times = new java.util.LinkedHashMap<>();
        route.connections().forEach(c -> c.perMessage().ifPresent(d -> times.put(c.relay(), d)));
        RunMemory.perMessage(run.ctx(), times);
        SendCounters counters = checkpoint.counters();
        boolean completed = new RunEnd(run).settle(report, checkpoint.isLeaseLost(), new RunEnd.Counts(
                counters.sent() - startCounters.sent(), counters.failed() - startCounters.failed(),
                counters.retried() - startCounters.retried(), sender.claimed()));
        Optional<LocalDate> capReached = quota.reachedOn().filter(day -> !completed);
        // The day's volume is used up: the next run is the first after the day ends.
        capReached.ifPresent(day -> NextRun.skipTo(run.ctx(), run.campaign(),
                NextRun.slotAtOrAfter(run.settings().dailyCap().endOf(day), run.ctx().interval())));
        Optional<String> unreachable = unreachable();
        RunEndReason end = RunEndReason.of(new RunEndReason.Facts(report.endReason(), completed, checkpoint.isLeaseLost(),
                checkpoint.pausedFor().isPresent(), capReached.isPresent(), unreachable, buffer.markingFailed(),
                run.ctx().stopRequested(), campaignStatus(), sender.lastEmptyBatch()));
        if (testShareOnly && end.name().equals("nothing_due")) {
            // The test share ran dry: if it is done, this run is the first to wait for the decision.
            end = AbRun.afterTestShare(run.ctx(), run.campaign(), deps.dataSource()).orElse(end);
        }
        new RunSummary(run.campaignId(), startCounters, checkpoint.counters(), sender.claimed(), completed,
                checkpoint.pausedFor(), unreachable, Optional.of(end.name())).withWhy(end.why())
                .withPace(PaceSummary.of(pacing, buffer.throttled()).withConnections(route.connections()))
                .withAllowedRate(allowedRate)
                .report(run.ctx(), report);
    }

    /** The run's last seconds, for status: a report lost to a failed write must not fail the run. */
    private void writeSeconds() {
        try {
            seconds.close(run.tables());
        } catch (SQLException | RuntimeException e) {
            log.warn("Campaign {}: the run's last seconds could not be written for status: {}", run.campaignId(),
                    e.getMessage());
        }
    }

    /** The campaign's status now, as the database has it ("running", "paused", …). */
    private Optional<String> campaignStatus() throws SQLException {
        Tables tables = run.tables();
        return tables.inTransaction(c -> tables.campaigns().status(c, run.campaignId()))
                .map(st -> st.dbValue());
    }

    /**
     * Why nothing more could be sent: every relay of the route down, each named with until when and
     * why; or the last relay's failure, when the run found it unreachable.
     */
    private Optional<String> unreachable() {
        if (checkpoint.pausedFor().isPresent()) {
            return Optional.empty();
        }
        return !route.sendable() ? Optional.of(route.downSummary()) : buffer.unreachable();
    }

    /**
     * The timebox's rate limit is the run's rate through its route: {@code rate} at the start, then
     * {@link Pacing#runRate()}. Its minimum timeout is the least time the SMTP pool ever starts a
     * message with; what a message needs beyond it, once the pools measured their relays, is the
     * in-flight time ({@link RouteSender#inFlight}), so the timebox starts no batch whose messages
     * the pools would all refuse to start.
     */
    private TimeboxConfig timeboxConfig(double startRate) {
        SendSettings s = run.settings();
        return new TimeboxConfig(Math.min(10, s.batchMax()), 1, s.batchMax(), startRate, 1.5, s.batchOverhead(),
                dev.mailrun.mail.smtp.StartBudget.MIN_MEASURED);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> castMap(Map<?, ?> m) {
        return (Map<String, ?>) m;
    }
}
