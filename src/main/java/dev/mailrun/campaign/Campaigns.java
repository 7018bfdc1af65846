package dev.mailrun.campaign;

import dev.mailrun.campaign.content.Contents;
import dev.mailrun.campaign.content.MessageForm;
import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.content.TemplateStore;
import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.CampaignTime;
import dev.mailrun.campaign.model.CampaignTransition;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.FailureFilter;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.model.RunCounts;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.store.AbTable;
import dev.mailrun.campaign.store.AttachmentTable;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.ContentPinTable;
import dev.mailrun.campaign.store.recipient.RecipientExport;
import dev.mailrun.campaign.store.recipient.SentSecondTable;
import dev.mailrun.campaign.store.recipient.StatusCountTable;
import dev.mailrun.campaign.variant.AbForm;
import dev.mailrun.campaign.variant.AbPicks;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.mail.template.TemplateProblem;
import dev.mailrun.scheduler.TaskStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * What an operator does to campaigns: create, change, start, pause, resume, cancel, requeue unknown or
 * failed recipients, read its runs and one recipient. Each change is a conditional update, so two
 * operators (or an operator and a running task) cannot leave a campaign in a state neither asked for.
 * Every rule on campaigns is enforced here or in the classes it delegates to ({@link CampaignCreation},
 * {@link CampaignStart}, {@link Requeues}), those that depend on the configuration by the
 * {@link CampaignSetup} it is built with: the CLI, the API and the console only translate their input
 * and its refusals. Over 250 lines as one piece because it is the one entry point they share, each
 * action a few lines over the same table, task and clock.
 */
public final class Campaigns {

    private final DataSource dataSource;
    private final TaskStore tasks;
    private final Contents templates;
    private final CampaignContent content;
    private final Clock clock;
    private final TickSlots slots;
    private final CampaignTable store = new CampaignTable();
    private final AttachmentTable files = new AttachmentTable();
    private final AbTable abTests = new AbTable();
    private final Requeues requeues;
    private final CampaignCreation creation;
    private final CampaignStart starts;
    private final CampaignTargets targets;
    private final CampaignMessages messages;
    private final WebVersionSetting webVersions;

    /** A configuration with everything sending needs, tracking on and no replies mailbox read. */
    public Campaigns(DataSource dataSource, TaskStore tasks, TemplateLoader templates, Clock clock, Duration tickInterval) {
        this(dataSource, tasks, templates, clock, tickInterval, new CampaignSetup(List.of(), true, false));
    }

    /** With the templates stored in {@code dataSource}, written in {@code templates}' directory. */
    public Campaigns(DataSource dataSource, TaskStore tasks, TemplateLoader templates, Clock clock, Duration tickInterval,
                     CampaignSetup setup) {
        this(dataSource, tasks, new Contents(dataSource, new TemplateStore(dataSource, clock, TemplateStore.DEFAULT_MAX_BYTES),
                templates, new PinnedTemplates(dataSource, clock)), clock, tickInterval, setup);
    }

    /** @param setup what the configuration lets campaigns do: the rules that depend on it are enforced here */
    public Campaigns(DataSource dataSource, TaskStore tasks, Contents templates, Clock clock, Duration tickInterval,
                     CampaignSetup setup) {
        this.dataSource = dataSource;
        this.tasks = tasks;
        this.templates = templates;
        this.content = new CampaignContent(dataSource, templates, tasks, clock);
        this.clock = clock;
        this.slots = new TickSlots(tickInterval);
        this.requeues = new Requeues(dataSource, clock, this::wakeTask);
        this.creation = new CampaignCreation(dataSource, templates, clock, setup);
        this.targets = new CampaignTargets(dataSource);
        this.messages = new CampaignMessages(dataSource, templates, content);
        this.webVersions = new WebVersionSetting(dataSource, clock, setup.webVersion());
        this.starts = new CampaignStart(dataSource, tasks, content, clock, slots, setup.missingForSending());
    }

    public long create(NewCampaign campaign) throws SQLException {
        return create(campaign, Optional.empty());
    }

    /** Through {@code route} (empty: the default route); the caller has checked its relays are configured. */
    public long create(NewCampaign campaign, Optional<RelayRoute> route) throws SQLException {
        return create(campaign, route, List.of());
    }

    /** Carrying {@code attachments} (checked by {@code campaign.attach.AttachmentFiles}), stored in its transaction. */
    public long create(NewCampaign campaign, Optional<RelayRoute> route, List<Attachment> attachments) throws SQLException {
        return create(campaign, route, attachments, Optional.empty(), Optional.empty());
    }

    /**
     * Creates a campaign whose messages are tracked as {@code tracking} says ({@code campaign create
     * --track}; empty: not tracked), with an A/B test ({@code --variant}, …; empty: none)
     * ({@link CampaignCreation}).
     */
    public long create(NewCampaign campaign, Optional<RelayRoute> route, List<Attachment> attachments,
                       Optional<TrackingMode> tracking, Optional<AbTest> ab) throws SQLException {
        return creation.create(campaign, route, attachments, tracking, ab);
    }

    /**
     * Reads, checks and creates a campaign as an operator gave it ({@code campaign create}, {@code POST
     * /campaigns}, the console's form): every bad field at once ({@link CampaignCreation}).
     *
     * @throws dev.mailrun.campaign.model.InvalidFields each problem with the domain's name of its field
     */
    public long create(CampaignForm form, Relays relays, AbForm ab, List<Attachment> attachments,
                       Optional<TrackingMode> tracking) throws SQLException {
        return create(form, relays, ab, attachments, tracking, AudienceNames.NONE);
    }

    /**
     * As above, sent to the subscribers of {@code audience}'s lists and segments (none: a campaign of
     * imported recipients only) as well as to any recipients imported into it (docs/AUDIENCE.md,
     * "Campaigns to lists and segments"). An unknown list or segment is a problem of the field
     * {@code lists} or {@code segments}.
     */
    public long create(CampaignForm form, Relays relays, AbForm ab, List<Attachment> attachments,
                       Optional<TrackingMode> tracking, AudienceNames audience) throws SQLException {
        return creation.create(form, relays, ab, attachments, tracking, audience);
    }

    /** As above, for a campaign with its own message placed into a layout ({@link CampaignCreation}). */
    public long create(CampaignForm form, Relays relays, AbForm ab, List<Attachment> attachments, Optional<TrackingMode> tracking,
                       MessageForm message, AudienceNames audience) throws SQLException {
        return creation.create(form, relays, ab, attachments, tracking, message, audience);
    }

    /** Every problem {@link #create(CampaignForm, Relays, AbForm, List, Optional)} would find, without creating anything. */
    public List<dev.mailrun.campaign.model.InvalidFields.Problem> problems(CampaignForm form, Relays relays, AbForm ab,
                                                                          Optional<TrackingMode> tracking) {
        return creation.check(form, relays, ab, tracking, AudienceNames.NONE).problems();
    }

    /** The lists and segments campaigns are sent to: read, and changed while a draft ({@link CampaignTargets}). */
    public CampaignTargets targets() {
        return targets;
    }

    /** A campaign's own message written, or rewritten, while what it sends may change ({@link CampaignMessages}). */
    public CampaignMessages messages() {
        return messages;
    }

    /** What campaigns' web version pages show, and a draft's setting changed ({@link WebVersionSetting}). */
    public WebVersionSetting webVersions() {
        return webVersions;
    }

    /** The files the campaign's messages carry, without their bytes, in order. */
    public List<Attachment.Summary> attachments(long id) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return files.list(c, id);
        }
    }

    /**
     * Changes a draft or scheduled campaign to {@code changed} (and its route, when given), only if it
     * is still as the caller saw it ({@code seen}: its updated_at). A scheduled campaign's start may
     * move, to another time in the future; its first run moves with it.
     *
     * @return the campaign as changed; empty when it changed since {@code seen}
     * @throws CampaignException when it is neither draft nor scheduled, or a scheduled campaign would lose its start
     * @throws dev.mailrun.campaign.model.InvalidFields when a changed start, or the expiry, is not in the future
     */
    public Optional<Campaign> update(long id, CampaignForm.Parsed changed, Instant seen) throws SQLException {
        Campaign before = get(id);
        if (before.status() != CampaignStatus.DRAFT && before.status() != CampaignStatus.SCHEDULED) {
            throw new CampaignException("campaign " + id + " is " + before.status().dbValue()
                    + "; only a draft or scheduled campaign can be changed");
        }
        NewCampaign n = changed.campaign();
        if (templates.load(n.template()) instanceof LoadResult.Invalid invalid) {
            throw new CampaignException("template " + n.template() + " cannot be used: " + first(invalid.problems()));
        }
        Instant now = clock.instant();
        if (!n.startAt().equals(before.startAt())) {
            n.startAt().ifPresent(at -> CampaignTime.requireFuture("startAt", at, now));
        }
        n.expireAt().ifPresent(at -> CampaignTime.requireFuture("expireAt", at, now));
        boolean rescheduled = before.status() == CampaignStatus.SCHEDULED && !n.startAt().equals(before.startAt());
        if (rescheduled && (n.startAt().isEmpty() || !n.startAt().get().isAfter(now))) {
            throw new CampaignException("campaign " + id + " is scheduled; its start can move only to another time in the future");
        }
        ContentPin pin = content.resolve(n.template());
        boolean updated = Transactions.inTransaction(dataSource, c -> {
            if (!store.update(c, id, n, seen, now)) {
                return false;
            }
            content.repin(c, id, pin, CampaignContent.CHANGED, now);
            if (changed.route().isPresent()) {
                store.setRoute(c, id, changed.route(), now);
            }
            return true;
        });
        if (!updated) {
            return Optional.empty();
        }
        if (rescheduled) {
            tasks.scheduleFrom(SendTask.taskName(id), slots.first(n.startAt().get()), now);
        }
        return Optional.of(get(id));
    }

    /** The campaign's own relay route; empty when it sends through the configured default route. */
    public Optional<RelayRoute> route(long id) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return store.route(c, id);
        }
    }

    public Campaign get(long id) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return store.find(c, id).orElseThrow(() -> new CampaignException("no campaign with id " + id));
        }
    }

    public List<Campaign> list() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return store.list(c);
        }
    }

    /** A page of campaigns in id order after {@code afterId}, filtered in the database ({@link CampaignTable#page}). */
    public List<Campaign> page(Optional<CampaignStatus> status, Optional<Instant> since, long afterId, int limit) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return store.page(c, status, since, afterId, limit);
        }
    }

    /**
     * Starts a draft campaign once everything its messages need is there ({@link CampaignStart}): the
     * settings no worker sends without, valid header values, recipients, a template that uses only
     * fields every recipient has. With a start time in the future the campaign waits as scheduled.
     *
     * @throws CampaignException naming what is missing or wrong
     */
    public CampaignStatus start(long id) throws SQLException {
        return starts.start(get(id));
    }

    /** Moves what a campaign (or one of its variants) sends to another stored version ({@link CampaignContent#move}). */
    public ContentPin moveContent(long id, String template, Optional<Integer> version, Optional<String> variant, String by)
            throws SQLException {
        return content.move(get(id), template, version, variant, by);
    }

    /** A new draft like the campaign (its lists and segments too), without its recipients ({@link CampaignClone}); named {@code name} or "… (copy)". */
    public long cloneOf(long id, Optional<String> name) throws SQLException {
        return new CampaignClone(dataSource, clock).cloneOf(id, name);
    }

    /** Every pin and move of the campaign's content, oldest first. */
    public List<ContentPinTable.Change> contentHistory(long id) throws SQLException {
        get(id);
        return content.history(id);
    }

    public void pause(long id, String reason) throws SQLException {
        transition(id, CampaignTransition.PAUSE, reason);
    }

    public CampaignStatus resume(long id) throws SQLException {
        Campaign campaign = get(id);
        Instant now = clock.instant();
        boolean later = campaign.startAt().map(at -> at.isAfter(now)).orElse(false);
        CampaignTransition resume = later ? CampaignTransition.RESUME_LATER : CampaignTransition.RESUME;
        transition(id, resume, null);
        String task = SendTask.taskName(id);
        tasks.setEnabled(task, true);
        tasks.scheduleFrom(task, slots.first(later ? campaign.startAt().get() : now), now);
        return resume.to();
    }

    public void cancel(long id) throws SQLException {
        transition(id, CampaignTransition.CANCEL, null);
        tasks.setEnabled(SendTask.taskName(id), false);
    }

    /**
     * Rebuilds the campaign's status counts from its rows, under a lock on them (docs/ARCHITECTURE.md,
     * "Status counts"): for rows written behind the store's back. Returns how many (status, relay)
     * counts differed; 0 when they were exact.
     */
    public int recount(long id) throws SQLException {
        get(id);
        StatusCountTable counts = new StatusCountTable();
        Instant now = clock.instant();
        return Transactions.inTransaction(dataSource, c -> {
            Map<String, Map<String, Long>> before = counts.read(c, id);
            counts.rebuild(c, id);
            new SentSecondTable().rebuild(c, id, now.minus(SentSecondTable.KEPT));
            return StatusCountTable.differences(before, counts.read(c, id));
        });
    }

    /** Sends the recipients whose delivery is unknown again; returns how many were requeued. */
    public int requeueUnknown(long id) throws SQLException {
        return requeues.unknown(get(id));
    }

    /**
     * Hands the failed recipients matching {@code filter} back to the queue, except those whose
     * address is suppressed. Returns how many were requeued and how many were left as suppressed.
     */
    public RequeueResult requeueFailed(long id, FailureFilter filter) throws SQLException {
        Requeues.FailedRequeued r = requeues.failed(get(id), filter);
        return new RequeueResult(r.requeued(), r.suppressed());
    }

    /**
     * {@link #requeueFailed(long, FailureFilter)} with the filter as an operator gives it: the reply
     * class or code, and words of the last error ({@link FailureFilter#parse}).
     *
     * @throws dev.mailrun.campaign.model.InvalidFields naming each bad part ({@code code}, {@code reason})
     */
    public RequeueResult requeueFailed(long id, Optional<String> code, Optional<String> reason) throws SQLException {
        return requeueFailed(id, FailureFilter.parse(code, reason));
    }

    /**
     * The campaign's latest runs, newest first; none before it was started. Idle runs (ticks that found
     * the campaign paused, waiting for its window or its A/B decision) did nothing and are left out.
     */
    public List<CampaignRun> runs(long id, int limit) throws SQLException {
        get(id);
        return tasks.recentWork(SendTask.taskName(id), limit).stream()
                .map(r -> new CampaignRun(r.id(), r.startedAt(), r.finishedAt(), r.outcome().dbValue(),
                        r.items(), RunCounts.of(r.summary()), r.error()))
                .toList();
    }

    /**
     * Records the winner of the campaign's A/B test ({@code campaign pick}) and gives it to the rest of
     * the list; the sending task is woken to send them.
     */
    public AbPicks.Picked pick(long id, String variant) throws SQLException {
        get(id);
        AbPicks.Picked picked = new AbPicks(dataSource, clock).pick(id, variant, "picked by the operator (campaign pick)");
        if (!get(id).status().isFinal()) {
            wakeTask(id, clock.instant());
        }
        return picked;
    }

    /** The campaign's A/B test and how far it is; empty when it has none. */
    public Optional<AbState> abTest(long id) throws SQLException {
        return Transactions.inTransaction(dataSource, c -> abTests.find(c, id, false));
    }

    /** What requeue-failed did. */
    public record RequeueResult(int requeued, int leftSuppressed) {}

    private void wakeTask(long id, Instant now) throws SQLException {
        tasks.setEnabled(SendTask.taskName(id), true);
        tasks.scheduleFrom(SendTask.taskName(id), slots.first(now), now);
    }

    private void transition(long id, CampaignTransition transition, String reason) throws SQLException {
        Instant now = clock.instant();
        boolean moved = Transactions.inTransaction(dataSource, c -> store.transition(c, id, transition, reason, now));
        if (!moved) {
            throw new CampaignException(transition.refusal(id, get(id).status()));
        }
    }

    static String first(List<TemplateProblem> problems) {
        return problems.isEmpty() ? "unknown problem" : problems.get(0).toString();
    }
}
