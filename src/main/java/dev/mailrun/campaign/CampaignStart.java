package dev.mailrun.campaign;

import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.CampaignTransition;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.campaign.store.AbTable;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.audience.segment.FilterCompiler;
import dev.mailrun.campaign.audience.segment.FilterParser;
import dev.mailrun.campaign.store.audience.CampaignListTable;
import dev.mailrun.campaign.store.audience.CampaignSegmentTable;
import dev.mailrun.campaign.store.audience.SubscriberFilterSql;
import dev.mailrun.campaign.store.recipient.AudienceRecipients;
import dev.mailrun.campaign.store.recipient.RecipientCounts;
import dev.mailrun.db.Transactions;
import dev.mailrun.scheduler.TaskStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Starting a draft campaign: the subscribers of its lists and segments become its recipients, then everything its
 * messages need is checked before its sending task is scheduled — the settings no worker sends without, its header values, its recipients, its pinned
 * template versions and its A/B variants' against the fields every recipient has — so a campaign never starts
 * into a run that could send nothing.
 */
final class CampaignStart {

    private final DataSource dataSource;
    private final TaskStore tasks;
    private final CampaignContent content;
    private final Clock clock;
    private final TickSlots slots;
    private final List<String> missingForSending;
    private final CampaignTable store = new CampaignTable();
    private final AbTable abTests = new AbTable();
    private final RecipientCounts queue = new RecipientCounts();
    private final CampaignListTable targets = new CampaignListTable();
    private final CampaignSegmentTable segmentTargets = new CampaignSegmentTable();
    private final AudienceRecipients audience = new AudienceRecipients();

    CampaignStart(DataSource dataSource, TaskStore tasks, CampaignContent content, Clock clock, TickSlots slots,
                  List<String> missingForSending) {
        this.dataSource = dataSource;
        this.tasks = tasks;
        this.content = content;
        this.clock = clock;
        this.slots = slots;
        this.missingForSending = List.copyOf(missingForSending);
    }

    CampaignStatus start(Campaign campaign) throws SQLException {
        long id = campaign.id();
        if (campaign.status() != CampaignStatus.DRAFT) {
            throw new CampaignException("campaign " + id + " is " + campaign.status().dbValue()
                    + "; only a draft campaign can be started" + (campaign.status() == CampaignStatus.PAUSED ? " (use resume)" : ""));
        }
        // No worker sends without them: refused here rather than started into a campaign nothing sends.
        if (!missingForSending.isEmpty()) {
            boolean one = missingForSending.size() == 1;
            throw new CampaignException("campaign " + id + " cannot start: " + String.join(" and ", missingForSending)
                    + (one ? " is" : " are") + " not set, and no worker sends without " + (one ? "it" : "them"));
        }
        // A row written before the rule, or not through NewCampaign: the sender would refuse every message.
        NewCampaign.headerProblem(campaign.name(), campaign.fromAddress(), campaign.fromName(), campaign.replyTo(),
                campaign.subjectOverride()).or(() -> campaign.headers().refusal()).ifPresent(problem -> {
                    throw new CampaignException("campaign " + id + " cannot start: " + problem);
                });
        materialise(id);
        Set<String> columns = commonColumns(id);
        Optional<AbTest> ab = Transactions.inTransaction(dataSource, c -> abTests.find(c, id, false)).map(AbState::test);
        content.problemAtStart(campaign, columns, ab).ifPresent(problem -> {
            throw new CampaignException("campaign " + id + " cannot start: " + problem);
        });
        Instant now = clock.instant();
        boolean later = campaign.startAt().map(at -> at.isAfter(now)).orElse(false);
        CampaignTransition start = later ? CampaignTransition.SCHEDULE : CampaignTransition.START;
        ensureTask(campaign, later ? campaign.startAt().get() : now);
        boolean moved = Transactions.inTransaction(dataSource, c -> store.transition(c, id, start, null, now));
        if (!moved) {
            throw new CampaignException("campaign " + id + " changed while starting; check its status");
        }
        return start.to();
    }

    private void ensureTask(Campaign campaign, Instant at) throws SQLException {
        String name = SendTask.taskName(campaign.id());
        Instant firstRun = slots.first(at);
        Instant now = clock.instant();
        if (tasks.find(name).isPresent()) {
            tasks.setEnabled(name, true);
            tasks.scheduleFrom(name, firstRun, now);
            return;
        }
        long taskId = tasks.create(SendTask.newTask(campaign, slots.interval(), firstRun)).id();
        // The first slot may have begun: a worker's next tick runs the task without a misfire.
        tasks.scheduleFrom(name, firstRun, now);
        Transactions.inTransaction(dataSource, c -> {
            store.setTask(c, campaign.id(), taskId, clock.instant());
            return null;
        });
    }

    /**
     * The subscribers of the campaign's lists and the members of its segments become its recipients, in
     * one statement ({@link AudienceRecipients}), with the campaign row held so its lists and segments
     * cannot change (nor a segment be deleted) meanwhile. Each segment's filter is compiled now, so
     * "the last N days" ends at the start. A start that fails a later check leaves them in the queue;
     * the next start adds only those not there yet.
     */
    private void materialise(long id) throws SQLException {
        Transactions.inTransaction(dataSource, c -> {
            store.lockExclusive(c, id);
            List<CampaignListTable.Target> lists = targets.of(c, id);
            List<CampaignSegmentTable.Target> segments = segmentTargets.of(c, id);
            if (lists.isEmpty() && segments.isEmpty()) {
                return null;
            }
            FilterCompiler compiler = new FilterCompiler(clock);
            List<SubscriberFilterSql.Where> filters = segments.stream()
                    .map(g -> compiler.compile(FilterParser.parse(g.filter()).filter()).where()).toList();
            long added = audience.materialise(c, id, !lists.isEmpty(), filters, clock.instant());
            if (added == 0 && queue.commonFieldNames(c, id).isEmpty()) {
                throw new CampaignException("campaign " + id + " cannot start: " + named(lists, segments)
                        + " no one to send to (no confirmed subscription of a subscriber neither blocklisted nor suppressed)");
            }
            return null;
        });
    }

    /** "its lists (a, b) have", "its segments (c) have", "its lists (a) and segments (c) have". */
    private static String named(List<CampaignListTable.Target> lists, List<CampaignSegmentTable.Target> segments) {
        String l = "lists (" + String.join(", ", lists.stream().map(CampaignListTable.Target::name).toList()) + ")";
        String g = "segments (" + String.join(", ", segments.stream().map(CampaignSegmentTable.Target::name).toList()) + ")";
        return "its " + (segments.isEmpty() ? l : lists.isEmpty() ? g : l + " and " + g) + " have";
    }

    /** The merge-field columns every recipient of the campaign has; fails when it has none. */
    private Set<String> commonColumns(long campaignId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return queue.commonFieldNames(c, campaignId)
                    .orElseThrow(() -> new CampaignException("campaign " + campaignId + " has no recipients; import some first"));
        }
    }
}
