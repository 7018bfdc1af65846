package dev.mailrun.app;

import dev.mailrun.app.config.BounceConfig;
import dev.mailrun.app.config.MailrunConfig;
import dev.mailrun.app.config.TrackingConfig;
import dev.mailrun.campaign.CampaignExport;
import dev.mailrun.campaign.CampaignSetup;
import dev.mailrun.campaign.CampaignStates;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.Templates;
import dev.mailrun.campaign.TrackingErasure;
import dev.mailrun.campaign.WebVersions;
import dev.mailrun.campaign.access.ApiAudit;
import dev.mailrun.campaign.access.ApiTokens;
import dev.mailrun.campaign.access.IdempotencyKeys;
import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberImporter;
import dev.mailrun.campaign.audience.Subscribers;
import dev.mailrun.campaign.audience.segment.Segments;
import dev.mailrun.campaign.bounce.BounceApplier;
import dev.mailrun.campaign.bounce.BounceProcessor;
import dev.mailrun.campaign.bounce.BounceRateBreaker;
import dev.mailrun.campaign.bounce.BounceSettings;
import dev.mailrun.campaign.bounce.ComplaintRateBreaker;
import dev.mailrun.campaign.bounce.TooFastDelays;
import dev.mailrun.campaign.content.Contents;
import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.feedback.FeedbackApplier;
import dev.mailrun.campaign.feedback.FeedbackProcessor;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.importing.RecipientImporter;
import dev.mailrun.campaign.model.WebVersionMode;
import dev.mailrun.campaign.reply.ReplyProcessor;
import dev.mailrun.campaign.report.CampaignReports;
import dev.mailrun.campaign.send.SendDependencies;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.campaign.send.deliver.TrackingLinks;
import dev.mailrun.campaign.send.deliver.UnsubscribeLinks;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.campaign.send.scope.Timing;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.recipient.RecipientFields;
import dev.mailrun.campaign.suppression.SuppressionImporter;
import dev.mailrun.campaign.suppression.SuppressionList;
import dev.mailrun.campaign.tracking.Tracker;
import dev.mailrun.campaign.tracking.TrackingListener;
import dev.mailrun.campaign.unsubscribe.MailedUnsubscribes;
import dev.mailrun.campaign.unsubscribe.ReturnPaths;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.UnsubscribeTokens;
import dev.mailrun.campaign.unsubscribe.Unsubscriber;
import dev.mailrun.events.DeliveryListener;
import dev.mailrun.events.Dispatcher;
import dev.mailrun.events.EventLog;
import dev.mailrun.events.delivery.WebhookClient;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.bounce.BounceMailbox;
import dev.mailrun.mail.bounce.BounceParser;
import dev.mailrun.mail.dkim.DkimSigner;
import dev.mailrun.mail.message.MessageIds;
import dev.mailrun.mail.smtp.WarmConnections;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.metrics.MailrunMetrics;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.RunListener;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.Sleeper;
import dev.mailrun.scheduler.TaskHandler;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.scheduler.WorkerHeartbeat;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * The application's parts, built from the configuration: the one place that wires packages together,
 * and nothing else (no rule of the product lives here). An accessor documented as <em>shared</em>
 * returns one instance for this object's life (those holding threads, clients or meters are closed
 * by {@link #close()}); every other accessor builds a new, stateless object over the shared pool
 * and clock on each call.
 */
public final class Services implements AutoCloseable {

    private final AppContext ctx;
    private final MailrunConfig config;
    private final Function<Services, UnsubscribeLinks> links;
    private Tracker tracker;   // guarded by this
    private WorkerHeartbeat heartbeat;   // guarded by this
    private MailrunMetrics metrics;      // guarded by this
    private WebhookClient webhooks;      // guarded by this
    private Campaigns campaigns;         // guarded by this
    private PinnedTemplates pinnedTemplates; // guarded by this
    private WarmConnections warm;        // guarded by this

    /**
     * @param links builds the unsubscribe links; production uses signed links from the configured
     *              secret, the demo its own local endpoint
     */
    public Services(AppContext ctx, Function<Services, UnsubscribeLinks> links) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.links = links;
    }

    public MailrunConfig config() {
        return config;
    }

    public Clock clock() {
        return ctx.clock();
    }

    public DataSource dataSource() {
        return ctx.dataSource();
    }

    public TaskStore tasks() {
        return new TaskStore(dataSource());
    }

    TemplateLoader templates() {
        return new TemplateLoader(config.templatesDir());
    }

    /** The pinned template versions, compiled once per process; shared (it is the cache). */
    public synchronized PinnedTemplates pinnedTemplates() {
        if (pinnedTemplates == null) {
            pinnedTemplates = new PinnedTemplates(dataSource(), clock());
        }
        return pinnedTemplates;
    }

    /** What template names resolve to when campaigns are created or changed; over the shared cache. */
    public Contents contents() {
        return new Contents(dataSource(), templateStore(), templates(), pinnedTemplates());
    }

    /** The campaign service, where every rule on campaigns lives; shared. */
    public synchronized Campaigns campaigns() {
        if (campaigns == null) {
            campaigns = new Campaigns(dataSource(), tasks(), contents(), clock(), config.tick().interval(), campaignSetup());
        }
        return campaigns;
    }

    /** What the configuration lets campaigns do: the campaign service enforces it, status reports what it holds back. */
    CampaignSetup campaignSetup() {
        return new CampaignSetup(config.unsubscribe().missingForSending(), config.tracking().enabled(), config.replies().counted(),
                WebVersionMode.of(config.webVersion().personal()));
    }

    public CampaignReports reports() {
        return new CampaignReports(dataSource(), tasks(), clock(), config.send(), config.relays())
                .withMissingSettings(campaignSetup().missingForSending())
                .withComplaintThreshold(config.bounce().settings().complaintPauseRate());
    }

    public RecipientImporter importer() {
        RecipientImporter importer = new RecipientImporter(dataSource(), pinnedTemplates(), addressFilter(), clock(),
                config.imports().settings()).withRecipientFiles(config.content().recipientFiles());
        return metricsIfServed().map(m -> importer.withListener(m.imports())).orElse(importer);
    }

    /** The audience: lists, segments, subscribers and imports into a list ({@link AudienceServices}). */
    public AudienceServices audience() {
        return new AudienceServices(new Lists(dataSource(), clock()), new Segments(dataSource(), clock()),
                new Subscribers(dataSource(), clock(), addressFilter()),
                new SubscriberImporter(dataSource(), clock(), addressFilter(), config.imports().settings()));
    }

    public SuppressionImporter suppressionImporter() {
        return new SuppressionImporter(dataSource(), clock());
    }

    public SuppressionList suppressions() {
        return new SuppressionList(dataSource(), clock());
    }

    /** The outbox as operators see it: deliveries, endpoints, replay, discard, enable. */
    public EventLog eventLog() {
        return new EventLog(dataSource(), config.events(), clock());
    }

    /**
     * A new events dispatcher; its meters when the metrics are served. Its HTTP client is shared and
     * closed with {@link #close()}.
     */
    public synchronized Dispatcher dispatcher() {
        if (webhooks == null) {
            webhooks = new WebhookClient(clock());
        }
        DeliveryListener listener = metricsIfServed().map(m -> m.bindEvents(eventLog())).orElse(DeliveryListener.NONE);
        return new Dispatcher(dataSource(), config.events(), clock(), webhooks, new RecipientFields(), listener,
                new SecureRandom());
    }

    public CampaignExport campaignExport() {
        return new CampaignExport(dataSource());
    }

    public ApiTokens apiTokens() {
        return new ApiTokens(dataSource(), clock(), new SecureRandom());
    }

    public ApiAudit apiAudit() {
        return new ApiAudit(dataSource(), clock());
    }

    public IdempotencyKeys idempotencyKeys() {
        return new IdempotencyKeys(dataSource(), clock());
    }

    /** The templates stored in the database, their versions and diffs. */
    public TemplateStore templateStore() {
        return new TemplateStore(dataSource(), clock(), config.content().maxTemplateBytes());
    }

    public Templates templateCatalogue() {
        return new Templates(config.templatesDir(), Optional.of(contents()));
    }

    /** This process's tick-loop heartbeat, which readiness and the metrics read; shared. */
    public synchronized WorkerHeartbeat heartbeat() {
        if (heartbeat == null) {
            heartbeat = new WorkerHeartbeat(clock());
        }
        return heartbeat;
    }

    /**
     * The metrics of this process (shared), created on first use with the pool's, the campaigns' and the
     * heartbeat's meters bound. Closed with {@link #close()}.
     */
    public synchronized MailrunMetrics metrics() {
        if (metrics == null) {
            metrics = new MailrunMetrics(clock());
            metrics.bindPool(dataSource());
            metrics.bindCampaigns(new CampaignStates(dataSource(), clock()), config.bounce().settings().pauseRate(),
                    config.bounce().settings().complaintPauseRate());
            WorkerHeartbeat beat = heartbeat();
            metrics.bindHeartbeat(beat::last);
            metrics.bindEvents(eventLog());
        }
        return metrics;
    }

    /** The metrics, when an admin listener will serve them; nobody would read them otherwise. */
    private Optional<MailrunMetrics> metricsIfServed() {
        return config.admin().port().isPresent() ? Optional.of(metrics()) : Optional.empty();
    }

    /** What the scheduler tells: the metrics (when served) and the heartbeat, which a live run's lease heartbeat beats. */
    private RunListener runListener() {
        WorkerHeartbeat beat = heartbeat();
        RunListener alive = new RunListener() {
            @Override
            public void heartbeat(String task) {
                beat.beat();
            }
        };
        List<RunListener> listeners = new ArrayList<>(List.of(alive));
        metricsIfServed().ifPresent(m -> listeners.add(m.runs()));
        return RunListener.all(listeners);
    }

    @Override
    public synchronized void close() {
        if (tracker != null) {
            tracker.flusher().close();
            tracker = null;
        }
        if (webhooks != null) {
            webhooks.close();
            webhooks = null;
        }
        if (metrics != null) {
            metrics.close();
            metrics = null;
        }
        if (warm != null) {
            warm.close();
            warm = null;
        }
    }

    private AddressFilter addressFilter() {
        return AddressFilters.from(config.imports());
    }

    /** The Message-ID signing key is derived from the unsubscribe secret, so one secret covers both. */
    Secret messageIdKey() {
        return Secret.of("message-id:" + config.unsubscribe().requireSecret().reveal());
    }

    public SendTask sendHandler() {
        return new SendTask(new SendDependencies(dataSource(), pinnedTemplates(), messageIdKey(),
                links.apply(this), config.send(), SecureRandom::new, config.dkim().map(DkimSigner::new),
                new Timing(clock(), System::nanoTime, Sleeper.onClock(clock())),
                metricsIfServed().map(MailrunMetrics::sends).orElse(SendEvents.NONE), config.relays(),
                config.content().recipientFiles(), trackingLinks(), warmConnections()));
    }

    /** The SMTP sessions kept open from one run to the next (smtp.keep-warm); shared, closed by {@link #close()}. */
    synchronized WarmConnections warmConnections() {
        return warm != null ? warm : (warm = WarmConnections.keptFor(config.smtpKeepWarm(), clock()));
    }

    /** The pages behind messages' web version links, over the shared template cache (docs/CONTENT.md). */
    public WebVersions webVersions() {
        return new WebVersions(dataSource(), pinnedTemplates(), links.apply(this), config.webVersion().personal());
    }

    /** The tracking URLs of tracked campaigns' messages; none while tracking.enabled is off. */
    TrackingLinks trackingLinks() {
        return config.tracking().enabled()
                ? TrackingWiring.links(config.tracking(), config.unsubscribe().requireSecret().reveal())
                : TrackingLinks.NONE;
    }

    /**
     * What the tracking endpoints record through (shared), created on first use (tracking.enabled only); its
     * writer thread is started by the endpoint and stopped by {@link #close()}.
     */
    public synchronized Tracker tracker() {
        if (tracker == null) {
            TrackingConfig t = config.tracking();
            tracker = new Tracker(dataSource(), clock(), t.settings().orElseThrow(), t.machines().orElseThrow(),
                    metricsIfServed().map(MailrunMetrics::tracking).orElse(TrackingListener.NONE));
        }
        return tracker;
    }

    /** Erases one address's opens and clicks, and records nothing more for it (tracking erase). */
    public TrackingErasure trackingErasure() {
        return new TrackingErasure(dataSource());
    }

    /** What this worker is called in the task table and in its record of its relays' settings. */
    public String workerName() {
        return SchedulerConfig.thisProcess(config.tick().fallbackHost());
    }

    /** Records this worker's relay settings now and every 30 s until closed ({@link RelayConfigBeacon}). New on each call. */
    public RelayConfigBeacon relayConfigBeacon() {
        return RelayConfigBeacon.start(dataSource(), workerName(), config.relays(), clock());
    }

    /**
     * A scheduler with every handler this configuration has (sending, and the mailboxes'). New on each
     * call; it writes nothing: a starting worker registers the mailbox tasks ({@link MailboxTasks#register}).
     */
    public Scheduler scheduler() {
        SchedulerConfig sc = SchedulerConfig.defaults(workerName())
                .withSafetyMargin(SchedulerConfig.SafetyMargin.fixed(config.tick().safetyMargin()))
                .withRunHistory(config.tick().runHistory())
                .withOverlapWait(config.tick().overlapWait())
                .withLease(config.tick().lease());
        List<TaskHandler> handlers = new ArrayList<>(List.of(sendHandler()));
        handlers.addAll(MailboxTasks.handlers(this));
        return new Scheduler(dataSource(), HandlerRegistry.of(handlers), sc, clock(), runListener());
    }

    BounceProcessor bounceProcessor() {
        BounceConfig b = config.bounce();
        SigningKey key = SigningKey.of(config.unsubscribe().requireSecret().reveal());
        ReturnPaths returnPaths = new ReturnPaths(key);
        MailedUnsubscribes unsubscribes = new MailedUnsubscribes(new UnsubscribeTokens(key),
                new Unsubscriber(dataSource(), new SuppressionTable(), clock()));
        return new BounceProcessor(new BounceMailbox(b.mailbox().orElseThrow()), unsubscribes, new BounceParser(),
                new BounceApplier(returnPaths, new SuppressionTable(), b.settings()),
                new BounceRateBreaker(dataSource(), b.settings(), clock()),
                new ComplaintRateBreaker(dataSource(), b.settings(), clock()), dataSource(), clock(),
                new TooFastDelays(config.send().domainGroups(), Relays.fastest(config.relays().byName().values())));
    }

    /** Counts people's replies, traced by the Message-IDs the sending path signed ({@link #messageIdKey()}). */
    ReplyProcessor replyProcessor() {
        return new ReplyProcessor(new BounceMailbox(config.replies().mailbox().orElseThrow()),
                MessageIds.anyDomain(messageIdKey()), dataSource(), clock());
    }

    /** Applies the events of the providers' webhooks, with the bounce rules and both breakers. */
    FeedbackProcessor feedbackProcessor() {
        BounceSettings settings = config.bounce().settings();
        return new FeedbackProcessor(dataSource(), new FeedbackApplier(new SuppressionTable(), settings),
                new BounceRateBreaker(dataSource(), settings, clock()), new ComplaintRateBreaker(dataSource(), settings, clock()),
                clock());
    }
}
