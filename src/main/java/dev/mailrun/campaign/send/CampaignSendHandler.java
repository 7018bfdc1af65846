package dev.mailrun.campaign.send;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.CampaignTransition;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.RecipientTable;
import dev.mailrun.campaign.store.RelayShareTable;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.dkim.DkimSigner;
import dev.mailrun.mail.message.MessageComposer;
import dev.mailrun.mail.message.MessageIds;
import dev.mailrun.mail.smtp.SendRateLimiter;
import dev.mailrun.mail.smtp.SmtpPool;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.Metadata;
import dev.mailrun.scheduler.NewTask;
import dev.mailrun.scheduler.RunContext;
import dev.mailrun.scheduler.RunReport;
import dev.mailrun.scheduler.TaskHandler;
import dev.mailrun.timebox.Algorithm;
import dev.mailrun.timebox.BatchBudget;
import dev.mailrun.timebox.BatchFailedException;
import dev.mailrun.timebox.BatchResult;
import dev.mailrun.timebox.EstimatorState;
import dev.mailrun.timebox.Timebox;
import dev.mailrun.timebox.TimeboxConfig;
import dev.mailrun.timebox.TimeboxReport;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending task: one task per campaign (named {@code campaign-<id>}), so campaigns run side by
 * side and the scheduler guarantees that two runs of one campaign never overlap.
 *
 * <p>A run:
 * <ol>
 *   <li>turns rows left in {@code sending} by an earlier run of this task into {@code unknown}
 *       (that run died or failed; whether those messages went out cannot be known);</li>
 *   <li>starts a scheduled campaign whose time has come; stops at once unless the campaign is running;</li>
 *   <li>compiles the template once;</li>
 *   <li>drains the queue in timeboxed batches — each batch re-reads the campaign status (pause,
 *       resume and cancel act at batch boundaries), claims as many recipients as the timebox says
 *       fit and sends them through the SMTP pool. A flush thread writes the results back, marks the
 *       next recipients as sending and checkpoints the counters, all in one transaction, and renews
 *       the run's relay share every second;</li>
 *   <li>stores the timebox estimator so the next run starts calibrated, and completes the
 *       campaign (disabling the task) when nothing is pending or waiting for a retry.</li>
 * </ol>
 */
public final class CampaignSendHandler implements TaskHandler {

    public static final String NAME = "campaign-send";
    static final String CAMPAIGN_KEY = "campaignId";
    static final String TIMEBOX_KEY = "timebox";

    private static final Logger log = LoggerFactory.getLogger(CampaignSendHandler.class);
    private static final Duration SHARE_TTL = Duration.ofSeconds(60);
    /** How often a sending run re-reads its relay share, also in the middle of a batch. */
    private static final Duration SHARE_RENEWAL = Duration.ofSeconds(1);

    /** What the handler needs from the outside world; built once by the application. */
    public record Dependencies(DataSource dataSource, TemplateLoader templates, SmtpSettings smtp, Secret messageIdKey,
                               UnsubscribeLinks links, SendSettings settings, Supplier<RandomGenerator> random,
                               Optional<DkimSigner> dkim) {

        /** Without DKIM signing. */
        public Dependencies(DataSource dataSource, TemplateLoader templates, SmtpSettings smtp, Secret messageIdKey,
                            UnsubscribeLinks links, SendSettings settings, Supplier<RandomGenerator> random) {
            this(dataSource, templates, smtp, messageIdKey, links, settings, random, Optional.empty());
        }
    }

    private final Dependencies deps;
    private final CampaignTable campaigns = new CampaignTable();
    private final SuppressionTable suppressions = new SuppressionTable();
    private final RecipientTable queue = new RecipientTable(suppressions);
    private final RelayShareTable shares = new RelayShareTable();

    public CampaignSendHandler(Dependencies deps) {
        this.deps = deps;
    }

    public Dependencies dependencies() {
        return deps;
    }

    public static String taskName(long campaignId) {
        return "campaign-" + campaignId;
    }

    /** The sending task of a campaign, first due at {@code firstRun}. */
    public static NewTask newTask(Campaign campaign, Duration interval, Instant firstRun) {
        return NewTask.of(taskName(campaign.id()), NAME, interval, firstRun)
                .withDescription("Send campaign " + campaign.id() + " (" + campaign.name() + ")")
                .withMetadata(Metadata.empty().put(CAMPAIGN_KEY, campaign.id()));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onAbandoned(Connection connection, String abandonedRunToken) throws SQLException {
        int unknown = queue.markUnknown(connection, abandonedRunToken, Instant.now());
        if (unknown > 0) {
            log.warn("Run {} died while sending; {} recipient(s) marked unknown (never resent automatically)",
                    abandonedRunToken, unknown);
        }
    }

    @Override
    public void run(RunContext ctx) throws Exception {
        long campaignId = ctx.metadata().getLong(CAMPAIGN_KEY)
                .orElseThrow(() -> new IllegalStateException("task " + ctx.taskName() + " has no campaignId in its metadata"));
        Instant now = ctx.clock().instant();
        Optional<Campaign> found = Transactions.inTransaction(deps.dataSource(), c -> {
            queue.markStaleSendingUnknown(c, campaignId, ctx.runToken(), now);
            Optional<Campaign> campaign = campaigns.find(c, campaignId);
            if (campaign.isPresent() && campaign.get().status() == CampaignStatus.SCHEDULED
                    && campaign.get().startAt().map(at -> !at.isAfter(now)).orElse(true)) {
                campaigns.transition(c, campaignId, CampaignTransition.BEGIN, null, now);
                campaign = campaigns.find(c, campaignId);
            }
            return campaign;
        });
        if (found.isEmpty() || found.get().status().isFinal()) {
            ctx.disableAfterThisRun();
            ctx.report(RunReport.empty().withSummary("campaign", campaignId).withSummary("status",
                    found.map(f -> f.status().dbValue()).orElse("deleted")));
            return;
        }
        Campaign campaign = found.get();
        if (campaign.status() != CampaignStatus.RUNNING) {
            campaign.startAt().filter(at -> campaign.status() == CampaignStatus.SCHEDULED).ifPresent(ctx::runNextAt);
            ctx.report(RunReport.empty().withSummary("campaign", campaignId).withSummary("status", campaign.status().dbValue()));
            return;
        }
        LoadResult loaded = deps.templates().load(campaign.template());
        if (loaded instanceof LoadResult.Invalid invalid) {
            String reason = "template " + campaign.template() + " does not compile: " + invalid.problems().get(0);
            Transactions.inTransaction(deps.dataSource(), c -> campaigns.transition(c, campaignId,
                    CampaignTransition.SELF_PAUSE, reason, ctx.clock().instant()));
            ctx.report(RunReport.empty().withSummary("campaign", campaignId).withSummary("paused", reason));
            return;
        }
        CompiledTemplate template = ((LoadResult.Loaded) loaded).template();
        if (!ctx.clock().instant().isBefore(ctx.deadline())) {
            // Started after its window closed (a late tick): sending now would only overrun.
            ctx.report(RunReport.empty().withSummary("campaign", campaignId).withSummary("end", "window already closed"));
            return;
        }
        new Run(ctx, campaign, template).drain();
    }

    /** One run of one campaign. */
    private final class Run {
        private final RunContext ctx;
        private final Campaign campaign;
        private final MessageFactory messages;
        private final ResultWriter writer;
        private final SendRateLimiter limiter;
        private long claimed;
        private final Progress startProgress;
        private volatile int holders;
        private volatile ScheduledExecutorService flusher;
        private volatile long lastRenewal;
        /** Claims the next batch while the current one sends, so the connections do not wait for it. */
        private final java.util.concurrent.ExecutorService claimer;
        /** The next batch, claimed ahead; touched by the run's thread only. */
        private java.util.concurrent.Future<Optional<RecipientTable.Claim>> nextClaim;

        Run(RunContext ctx, Campaign campaign, CompiledTemplate template) {
            this.ctx = ctx;
            this.campaign = campaign;
            this.messages = new MessageFactory(campaign, template, new MessageComposer(ctx.clock()),
                    new MessageIds(EmailAddress.of(campaign.fromAddress()).domain(), deps.messageIdKey()), deps.links(), deps.dkim());
            Progress progress = ctx.metadata().get(ResultWriter.PROGRESS_KEY, Progress.class).orElse(Progress.start(campaign.id()));
            this.startProgress = progress;
            SendSettings s = deps.settings();
            this.writer = new ResultWriter(deps.dataSource(), queue, suppressions, campaigns,
                    new RetryPolicy(s.maxAttempts(), s.retryBase(), deps.random().get()), ctx, ctx.clock(), s, progress,
                    this::requestFlush);
            this.limiter = new SendRateLimiter(0);
            this.claimer = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "mailrun-claim-" + campaign.id());
                t.setDaemon(true);
                return t;
            });
        }

        void drain() throws Exception {
            SendSettings s = deps.settings();
            Instant started = ctx.clock().instant();
            EstimatorState estimator = ctx.metadata().get(TIMEBOX_KEY, Map.class)
                    .map(m -> EstimatorState.fromMap(castMap(m))).orElse(EstimatorState.initial());
            double rate = renewShare();
            if (holders > 1) {
                // Others already send through this relay at their old share; give them one renewal
                // period to see this run and slow down, so the relay's rate holds while it joins.
                Thread.sleep(SHARE_RENEWAL.toMillis() + 100);
                rate = renewShare();
            }
            Timebox timebox = new Timebox(ctx.clock(), timeboxConfig(rate));
            flusher = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "mailrun-flush-" + campaign.id());
                t.setDaemon(true);
                return t;
            });
            flusher.scheduleWithFixedDelay(this::flushQuietly, 50, 50, TimeUnit.MILLISECONDS);
            TimeboxReport report;
            try (SmtpPool pool = new SmtpPool(deps.smtp(), limiter, ctx.clock())) {
                try {
                    report = timebox.runUntil(ctx.deadline(), budget -> batch(budget, pool), Algorithm.PREDICTIVE,
                            estimator, () -> ctx.stopRequested() || writer.mustStop());
                } catch (BatchFailedException e) {
                    report = e.partialReport();
                    finish(report);
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            } finally {
                claimer.shutdown();
                flusher.shutdownNow();
                flusher.awaitTermination(5, TimeUnit.SECONDS);
                releaseShare();
            }
            finish(report);
            log.debug("Campaign {} run started {} ended {}", campaign.id(), started, report.ended());
        }

        private BatchResult batch(BatchBudget budget, SmtpPool pool) throws Exception {
            if (writer.mustStop()) {
                return BatchResult.done(0);
            }
            // The relay share is renewed by the flush thread every second, mid-batch as well.
            Optional<RecipientTable.Claim> claim = takeClaim(budget.maxItems());
            if (claim.isEmpty() || claim.get().recipients().isEmpty()) {
                return BatchResult.done(0);
            }
            List<ClaimedRecipient> recipients = claim.get().recipients();
            if (recipients.size() > budget.maxItems()) {
                // Claimed ahead for a larger batch than the timebox now allows: hand back the rest.
                release(recipients.subList(budget.maxItems(), recipients.size()));
                recipients = recipients.subList(0, budget.maxItems());
            }
            claimed += recipients.size();
            writer.hold(recipients);
            int nextSize = budget.maxItems();
            nextClaim = claimer.submit(() -> claim(nextSize));
            long attemptedBefore = writer.attempted();
            SendingMarker marker = new SendingMarker(SendingMarker.ahead(deps.smtp().connections(), deps.settings().flushEvery()),
                    recipients.stream().map(ClaimedRecipient::id).toList(), writer::requestFlush);
            writer.watch(marker);
            Instant sendDeadline = budget.deadline().minus(deps.settings().batchOverhead());
            pool.sendBatch(recipients.stream().map(r -> marked(messages.outgoing(r), marker)).toList(), sendDeadline,
                    () -> ctx.stopRequested() || writer.mustStop() || !budget.hasTimeForAnotherItem(),
                    writer::accept);
            // No flush here: the flush thread writes these results together with the next batch's
            // first marks, so the connections do not wait for an extra round trip between batches.
            // The timebox learns from what was tried, not from what was claimed and handed back.
            return BatchResult.more((int) (writer.attempted() - attemptedBefore));
        }

        /** The recipient is marked sending (with a few after it) before its message is built. */
        private dev.mailrun.mail.smtp.Outgoing marked(dev.mailrun.mail.smtp.Outgoing out, SendingMarker marker) {
            return new dev.mailrun.mail.smtp.Outgoing() {
                @Override
                public long key() {
                    return out.key();
                }

                @Override
                public jakarta.mail.internet.MimeMessage build(jakarta.mail.Session session)
                        throws dev.mailrun.mail.RejectedMessageException {
                    marker.beforeSend(out.key());
                    return out.build(session);
                }

                @Override
                public Optional<String> envelopeFrom() {
                    return out.envelopeFrom();
                }
            };
        }

        /**
         * Claims up to {@code max} recipients; empty when the campaign is no longer running or the
         * lease is lost. A claim that found only suppressed recipients is repeated, so a run of
         * suppressed addresses never looks like an empty queue.
         */
        private Optional<RecipientTable.Claim> claim(int max) throws SQLException {
            // Flushes wait meanwhile: the claim checkpoints the counters it changed (suppressed).
            return writer.exclusive(() -> claimNow(max));
        }

        private Optional<RecipientTable.Claim> claimNow(int max) throws SQLException {
            while (true) {
                Instant now = ctx.clock().instant();
                Optional<RecipientTable.Claim> claim = Transactions.inTransaction(deps.dataSource(), c -> {
                    Optional<CampaignStatus> status = campaigns.status(c, campaign.id());
                    if (status.isEmpty() || status.get() != CampaignStatus.RUNNING) {
                        return Optional.empty();
                    }
                    // The lease first, then the rows: a run whose lease was taken over gives up here,
                    // before it locks any recipient. Checking it only after the claim, a stalled run
                    // held its claimed rows locked while it waited for the task row, and its successor's
                    // claim (SKIP LOCKED) passed them by and took the queue for empty.
                    if (!writer.checkpointClaim(c, 0)) {
                        c.rollback();
                        return Optional.empty();
                    }
                    RecipientTable.Claim cl = queue.claim(c, campaign.id(), ctx.runToken(), now, max);
                    // Written again only when the claim changed the counters (it found suppressed rows).
                    if (cl.suppressed() > 0 && !writer.checkpointClaim(c, cl.suppressed())) {
                        c.rollback();
                        return Optional.empty();
                    }
                    return Optional.of(cl);
                });
                claim.ifPresent(cl -> writer.claimCommitted(cl.suppressed()));
                if (claim.isEmpty() || !claim.get().recipients().isEmpty() || claim.get().suppressed() == 0) {
                    return claim;
                }
            }
        }

        /**
         * The batch claimed ahead during the previous one, or a fresh claim. A batch claimed ahead
         * goes back to the queue if the campaign stopped running since (pause and cancel still act
         * at the batch boundary).
         */
        private Optional<RecipientTable.Claim> takeClaim(int max) throws Exception {
            Optional<RecipientTable.Claim> ahead = awaitNextClaim();
            if (ahead == null) {
                return claim(max);
            }
            if (ahead.isPresent() && !running()) {
                release(ahead.get().recipients());
                return Optional.empty();
            }
            return ahead;
        }

        /** The claim made ahead, waited for; null when none was made. */
        private Optional<RecipientTable.Claim> awaitNextClaim() throws Exception {
            java.util.concurrent.Future<Optional<RecipientTable.Claim>> f = nextClaim;
            nextClaim = null;
            if (f == null) {
                return null;
            }
            try {
                return f.get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }

        /** Recipients claimed but not sent go back to the queue with the next flush. */
        private void release(List<ClaimedRecipient> recipients) {
            writer.hold(recipients);
            recipients.forEach(r -> writer.accept(new dev.mailrun.mail.smtp.SendResult.NotAttempted(r.id())));
        }

        private boolean running() throws SQLException {
            return Transactions.inTransaction(deps.dataSource(), c -> campaigns.status(c, campaign.id()))
                    .filter(st -> st == CampaignStatus.RUNNING).isPresent();
        }

        /** What the end of a run found: whether the campaign completed, and when the next retry is due. */
        private record Ending(boolean completed, Optional<Instant> nextRetry) {}

        private void finish(TimeboxReport report) throws SQLException {
            try {
                Optional<RecipientTable.Claim> ahead = awaitNextClaim();
                if (ahead != null) {
                    ahead.ifPresent(cl -> release(cl.recipients()));
                }
            } catch (Exception e) {
                // Its rows stay held by this run's token; the next run of this task releases them.
                log.warn("Campaign {}: the batch claimed ahead could not be handed back: {}", campaign.id(), e.getMessage());
            }
            writer.flush();
            Progress p = writer.progress();
            Instant now = ctx.clock().instant();
            Ending ending = new Ending(false, Optional.empty());
            if (!writer.leaseLost()) {
                ctx.metadata().putValue(TIMEBOX_KEY, report.estimator().toMap());
                ending = Transactions.inTransaction(deps.dataSource(), c -> {
                    Ending e = queue.hasWorkLeft(c, campaign.id())
                            ? new Ending(false, queue.hasPendingNow(c, campaign.id(), now) ? Optional.empty()
                                    : queue.nextRetryAt(c, campaign.id()))
                            : new Ending(campaigns.transition(c, campaign.id(), CampaignTransition.COMPLETE, null, now), Optional.empty());
                    if (!ctx.checkpoint(c)) {
                        c.rollback();
                        return new Ending(false, Optional.empty());
                    }
                    return e;
                });
            }
            if (ending.completed()) {
                ctx.disableAfterThisRun();
            } else {
                // Only retries due later are left: sleep until the slot holding the first of them
                // rather than tick idly. Slots stay on the tick grid so runs keep their full window.
                ending.nextRetry().map(at -> slotAtOrAfter(at, ctx.interval()))
                        .filter(at -> at.isAfter(ctx.scheduledFor().plus(ctx.interval())))
                        .ifPresent(ctx::runNextAt);
            }
            Map<String, Object> summary = new java.util.LinkedHashMap<>();
            summary.put("campaign", campaign.id());
            summary.put("sent", p.sent());
            summary.put("failed", p.failed());
            summary.put("retried", p.retried());
            summary.put("suppressed", p.suppressed());
            summary.put("claimed", claimed);
            summary.put("end", report.endReason().name().toLowerCase(java.util.Locale.ROOT));
            summary.put("completed", ending.completed());
            writer.pausedFor().ifPresent(reason -> {
                summary.put("paused", reason);
                log.warn("Campaign {} paused: {}", campaign.id(), reason);
            });
            writer.unreachable().ifPresent(reason -> {
                summary.put("relay_unreachable", reason);
                log.warn("Campaign {}: the relay is unreachable ({}); nobody was charged an attempt, the next tick tries again",
                        campaign.id(), reason);
            });
            log.info("run task={} campaign={} sent={} failed={} retried={} duration={}ms utilisation={} overrun={}ms end={}",
                    ctx.taskName(), campaign.id(), p.sent() - startProgress.sent(), p.failed() - startProgress.failed(),
                    p.retried() - startProgress.retried(), Duration.between(report.started(), report.ended()).toMillis(),
                    String.format(java.util.Locale.ROOT, "%.2f", report.utilisation()), report.overrun().toMillis(),
                    report.endReason().name().toLowerCase(java.util.Locale.ROOT));
            ctx.report(new RunReport(report.batches(), report.items(), report.utilisation(), report.overrun(), summary));
        }

        private synchronized double renewShare() throws SQLException {
            RelayShareTable.Holders live = Transactions.inTransaction(deps.dataSource(),
                    c -> shares.renew(c, deps.settings().relay(), ctx.runToken(), SHARE_TTL));
            holders = live.holders();
            lastRenewal = System.nanoTime();
            double rate = RelayShareTable.shareOf(deps.settings().relayRate(), live, campaign.rateCap().orElse(0.0));
            if (limiter.rate() != rate) {
                limiter.setRate(rate);
            }
            return rate;
        }

        private void releaseShare() {
            try {
                Transactions.inTransaction(deps.dataSource(), c -> {
                    shares.release(c, deps.settings().relay(), ctx.runToken());
                    return null;
                });
            } catch (SQLException e) {
                log.warn("Could not release the relay share of run {} (it expires by itself): {}", ctx.runToken(), e.getMessage());
            }
        }

        /** Asked by the result writer when enough results wait: the flush thread writes them. */
        private void requestFlush() {
            ScheduledExecutorService f = flusher;
            if (f != null && !f.isShutdown()) {
                try {
                    f.execute(this::flushQuietly);
                } catch (java.util.concurrent.RejectedExecutionException ignored) {
                    // Shutting down: the run's final flush writes what is left.
                }
            }
        }

        private void flushQuietly() {
            try {
                if (System.nanoTime() - lastRenewal >= SHARE_RENEWAL.toNanos()) {
                    renewShare();
                }
                writer.flushIfDue();
            } catch (SQLException | RuntimeException e) {
                log.warn("Flushing send results failed; they are retried at the next flush: {}", e.getMessage());
            }
        }

        private TimeboxConfig timeboxConfig(double rate) {
            SendSettings s = deps.settings();
            return new TimeboxConfig(Math.min(10, s.batchMax()), 1, s.batchMax(), rate, 1.5, s.batchOverhead(),
                    Duration.ofMillis(10));
        }
    }

    /** The first tick slot starting at or after {@code at}. */
    static Instant slotAtOrAfter(Instant at, Duration interval) {
        long ms = interval.toMillis();
        long t = at.toEpochMilli();
        long floor = t - Math.floorMod(t, ms);
        return Instant.ofEpochMilli(floor == t ? t : floor + ms);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> castMap(Map<?, ?> m) {
        return (Map<String, ?>) m;
    }
}
