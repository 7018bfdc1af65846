package dev.mailrun.campaign.send;

import dev.mailrun.mail.smtp.PoolEvents;
import dev.mailrun.mail.smtp.SmtpPool;
import dev.mailrun.mail.template.CompiledTemplate;
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
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of one campaign, after {@link SendTask} found it running and its template compiled:
 * <ol>
 *   <li>takes its share of the relay ({@link RelayShare}, {@link RelayRate});</li>
 *   <li>sends timeboxed batches until the deadline, the end of the queue or a reason to stop
 *       ({@link BatchSender}, claiming ahead with {@link ClaimAhead} and {@link Claimer}), while the
 *       {@link FlushThread} writes the results back ({@link ResultBuffer}, {@link ResultFlusher},
 *       {@link Checkpoint}) and renews the relay share;</li>
 *   <li>hands back what it claimed and did not send, flushes the rest, and settles
 *       ({@link RunEnd}, {@link RunSummary}).</li>
 * </ol>
 */
final class SendRun {

    static final String TIMEBOX_KEY = "timebox";
    /** The run's start-up and shutdown costs ({@link RunCosts}), learned from run to run. */
    static final String COSTS_KEY = "runCosts";
    private static final Logger log = LoggerFactory.getLogger(SendRun.class);

    private final RunScope run;
    private final SendTask.Dependencies deps;
    private final SendCounters startCounters;
    private final RelayRate rate;
    private final RelayShare share;
    private final Checkpoint checkpoint;
    private final ResultBuffer buffer;
    private final ResultFlusher flusher;
    private final FlushThread flushThread;
    private final ClaimAhead claimAhead;
    private final BatchSender sender;

    SendRun(RunScope run, SendTask.Dependencies deps, CompiledTemplate template) {
        this.run = run;
        this.deps = deps;
        long id = run.campaignId();
        PauseRules rules = new PauseRules(run.settings());
        SendCounters stored = run.ctx().metadata().get(SendCounters.METADATA_KEY, SendCounters.class)
                .orElse(SendCounters.start(id));
        this.startCounters = stored;
        this.rate = RelayRate.forRun(run.settings(), run.campaign());
        this.share = new RelayShare(run, rate, deps.timing());
        this.checkpoint = new Checkpoint(run.ctx(), rules.countersAtStart(stored));
        this.flushThread = new FlushThread(id);
        RetryPolicy retry = new RetryPolicy(run.settings().maxAttempts(), run.settings().retryBase(), deps.random().get());
        this.buffer = new ResultBuffer(run, retry, rules.windowAtStart(stored), flushThread::request);
        this.flusher = new ResultFlusher(run, buffer, checkpoint, rules);
        this.claimAhead = new ClaimAhead(new Claimer(run, checkpoint, buffer), buffer, id);
        this.sender = new BatchSender(run, claimAhead, buffer, deps.messages(run.campaign(), template, run.clock()),
                SendingMarker.ahead(deps.smtp().connections(), run.settings().flushEvery()));
    }

    /** The SMTP pool's permit waits and connections, told to the metrics under this run's relay. */
    private PoolEvents poolEvents() {
        SendEvents events = run.events();
        String relay = run.relay();
        return new PoolEvents() {
            @Override
            public void permitWaited(Duration waited) {
                events.permitWaited(relay, waited);
            }

            @Override
            public void connectionOpened() {
                events.connectionOpened(relay);
            }

            @Override
            public void connectionClosed() {
                events.connectionClosed(relay);
            }
        };
    }

    void drain() throws Exception {
        Instant started = run.clock().instant();
        EstimatorState estimator = run.ctx().metadata().get(TIMEBOX_KEY, Map.class)
                .map(m -> EstimatorState.fromMap(castMap(m))).orElse(EstimatorState.initial());
        RunCosts costs = run.ctx().metadata().get(COSTS_KEY, Map.class)
                .map(m -> RunCosts.fromMap(castMap(m))).orElse(RunCosts.unknown());
        share.join();
        Timebox timebox = new Timebox(run.clock(), timeboxConfig(rate.current()), rate::current);
        flushThread.start(share, flusher);
        TimeboxReport report;
        try (SmtpPool pool = new SmtpPool(deps.smtp(), rate.limiter(), run.clock(), poolEvents())) {
            try {
                report = timebox.runUntil(run.ctx().deadline(), budget -> sender.send(budget, pool, this::mustStop),
                        Algorithm.PREDICTIVE, estimator, costs, () -> run.ctx().stopRequested() || mustStop());
            } catch (BatchFailedException e) {
                report = e.partialReport();
                finish(report, costs);
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        } finally {
            claimAhead.shutdown();
            flushThread.stop();
            share.release();
        }
        finish(report, costs);
        log.debug("Campaign {} run started {} ended {}", run.campaignId(), started, report.ended());
    }

    /** True once the campaign was paused (fatal error or failure rate), the relay was unreachable, or the lease was lost. */
    private boolean mustStop() {
        return checkpoint.pausedFor().isPresent() || checkpoint.isLeaseLost() || buffer.mustStop();
    }

    private void finish(TimeboxReport report, RunCosts costs) throws SQLException {
        claimAhead.handBack();
        flusher.flush();
        if (report.batches() > 0) {
            // Shutdown: from the last batch to the end of the final flush, which the next run keeps free.
            Duration shutdown = Duration.between(report.ended(), run.clock().instant());
            run.ctx().metadata().putValue(COSTS_KEY, costs.observe(report.startup(), shutdown).toMap());
        }
        boolean completed = new RunEnd(run).settle(report, checkpoint.isLeaseLost());
        new RunSummary(run.campaignId(), startCounters, checkpoint.counters(), sender.claimed(), completed,
                checkpoint.pausedFor(), buffer.unreachable(), RelayRate.configured(run.settings(), run.campaign()))
                .report(run.ctx(), report);
    }

    /** The timebox's rate limit is the run's share of the relay: {@code rate} at the start, then {@link RelayRate#current()}. */
    private TimeboxConfig timeboxConfig(double startRate) {
        SendSettings s = run.settings();
        return new TimeboxConfig(Math.min(10, s.batchMax()), 1, s.batchMax(), startRate, 1.5, s.batchOverhead(),
                Duration.ofMillis(10));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> castMap(Map<?, ?> m) {
        return (Map<String, ?>) m;
    }
}
