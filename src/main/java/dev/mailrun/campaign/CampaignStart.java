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
import dev.mailrun.campaign.store.audience.CampaignListTable;
import dev.mailrun.campaign.store.recipient.ListRecipients;
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
 * Starting a draft campaign: a list campaign's subscribers become its recipients, then everything its
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
    private final ListRecipients listRecipients = new ListRecipients();

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
     * A list campaign's subscribers become its recipients, in one statement ({@link ListRecipients}),
     * with the campaign row held so its lists cannot change meanwhile. A start that fails a later
     * check leaves them in the queue; the next start adds only those not there yet.
     */
    private void materialise(long id) throws SQLException {
        Transactions.inTransaction(dataSource, c -> {
            store.lockExclusive(c, id);
            List<CampaignListTable.Target> lists = targets.of(c, id);
            if (lists.isEmpty()) {
                return null;
            }
            long added = listRecipients.materialise(c, id, clock.instant());
            if (added == 0 && queue.commonFieldNames(c, id).isEmpty()) {
                throw new CampaignException("campaign " + id + " cannot start: its lists ("
                        + String.join(", ", lists.stream().map(CampaignListTable.Target::name).toList())
                        + ") have no one to send to (no confirmed subscription of a subscriber neither blocklisted nor suppressed)");
            }
            return null;
        });
    }

    /** The merge-field columns every recipient of the campaign has; fails when it has none. */
    private Set<String> commonColumns(long campaignId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return queue.commonFieldNames(c, campaignId)
                    .orElseThrow(() -> new CampaignException("campaign " + campaignId + " has no recipients; import some first"));
        }
    }
}
