package dev.mailrun.campaign;

import dev.mailrun.campaign.content.Contents;
import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.model.AbTest;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.CampaignException;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.campaign.store.ContentPinTable;
import dev.mailrun.campaign.store.ContentPinTable.CampaignPin;
import dev.mailrun.campaign.store.ContentPinTable.VariantPin;
import dev.mailrun.campaign.variant.VariantChecks;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.template.MergeFields;
import dev.mailrun.mail.template.TemplateProblem;
import dev.mailrun.scheduler.Task;
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
 * The content a campaign pins ({@link PinnedTemplates}): checked against its recipients at start,
 * pinned again when a draft changes, moved to another version by an operator only while the campaign
 * is a draft, scheduled, or paused with no run holding it; every pin and move recorded with who made
 * it. What a running campaign sends never changes.
 */
final class CampaignContent {

    /** Who pins a draft's content again when the draft is changed. */
    static final String CHANGED = "campaign update";
    /** Who moves content: at most this many characters, one line. */
    static final int MAX_BY = 200;

    private final DataSource dataSource;
    private final Contents contents;
    private final TaskStore tasks;
    private final Clock clock;
    private final ContentPinTable pins = new ContentPinTable();

    CampaignContent(DataSource dataSource, Contents contents, TaskStore tasks, Clock clock) {
        this.dataSource = dataSource;
        this.contents = contents;
        this.tasks = tasks;
        this.clock = clock;
    }

    /** The first reason the campaign's pinned content cannot be sent to these recipient fields; empty: none. */
    Optional<String> problemAtStart(Campaign campaign, Set<String> columns, Optional<AbTest> ab) throws SQLException {
        PinnedTemplates.Pins pinned = contents.pinned().pins(campaign.id());
        List<TemplateProblem> problems = pinned.campaign().isPresent()
                ? contents.check(pinned.campaign().get(), MergeFields.available(columns))
                : List.of(PinnedTemplates.notStoredProblem(campaign.template()));
        if (!problems.isEmpty()) {
            return Optional.of(problems.size() + " template problem(s), first: " + Campaigns.first(problems)
                    + " (run: mailrun template check " + campaign.template() + ")");
        }
        if (ab.isPresent()) {
            return VariantChecks.problemAtStart(contents, pinned.variants(), ab.get(), columns);
        }
        return Optional.empty();
    }

    /** What {@code template} pins now, storing text written in templates.dir and never stored. */
    ContentPin resolve(String template) throws SQLException {
        return contents.pin(template, CHANGED);
    }

    /** Pins {@code pin} within the caller's transaction when the campaign's pin differs from it. */
    void repin(Connection c, long campaignId, ContentPin pin, String by, Instant now) throws SQLException {
        Optional<CampaignPin> current = pins.campaign(c, campaignId, true);
        if (current.isPresent() && !(current.get().template().equals(pin.template())
                && current.get().version().equals(Optional.of(pin.version())))) {
            pins.pinCampaign(c, campaignId, current.get().version(), pin, by, now);
        }
    }

    /**
     * Moves the campaign (or its variant {@code variant}) to {@code template}'s version {@code version}
     * (empty: what the name resolves to now), by {@code by}.
     *
     * @return the new pin
     * @throws CampaignException when the campaign is running or finished, or a run still holds it
     * @throws InvalidFields when the template, version or variant does not exist
     */
    ContentPin move(Campaign campaign, String template, Optional<Integer> version, Optional<String> variant, String by)
            throws SQLException {
        String who = who(by);
        requireMovable(campaign);
        long id = campaign.id();
        ContentPin pin = version.isPresent() ? stored(template, version.get()) : latest(template, who);
        Instant now = clock.instant();
        Transactions.inTransaction(dataSource, c -> {
            if (variant.isEmpty()) {
                Optional<CampaignPin> current = pins.campaign(c, id, true);
                pins.pinCampaign(c, id, current.flatMap(CampaignPin::version), pin, who, now);
                return null;
            }
            VariantPin v = pins.variants(c, id).stream().filter(p -> p.variant().equals(variant.get())).findFirst()
                    .orElseThrow(() -> InvalidFields.of("variant", "campaign " + id + " has no variant " + variant.get()
                            + " with a template of its own"));
            if (!v.template().equals(template)) {
                throw InvalidFields.of("template", "variant " + v.variant() + " sends template " + v.template()
                        + "; a variant moves only to another version of its template");
            }
            pins.pinVariant(c, id, v.variant(), v.version(), pin, who, now);
            return null;
        });
        return pin;
    }

    /**
     * Who changes a campaign's content, stripped: one line of 1-{@value #MAX_BY} characters.
     *
     * @throws InvalidFields (field {@code by}) otherwise
     */
    static String who(String by) {
        String who = by == null ? "" : by.strip();
        if (who.isEmpty() || who.length() > MAX_BY || who.chars().anyMatch(Character::isISOControl)) {
            throw InvalidFields.of("by", "who moves a campaign's content must be one line of 1-" + MAX_BY + " characters");
        }
        return who;
    }

    /**
     * Refuses a change of what the campaign sends unless it is a draft, scheduled, or paused with no run
     * holding it: what a running campaign sends never changes.
     *
     * @throws CampaignException naming why not
     */
    void requireMovable(Campaign campaign) throws SQLException {
        long id = campaign.id();
        CampaignStatus status = campaign.status();
        if (status == CampaignStatus.RUNNING || status.isFinal()) {
            throw new CampaignException("campaign " + id + " is " + status.dbValue() + "; what it sends changes only while it "
                    + "is a draft, scheduled or paused");
        }
        if (status == CampaignStatus.PAUSED && tasks.find(SendTask.taskName(id)).flatMap(Task::liveRun).isPresent()) {
            throw new CampaignException("campaign " + id + " is paused but its last run is still ending; move its content "
                    + "once no run holds it");
        }
    }

    /** What {@code template} pins now; a name that resolves to nothing usable is a bad field, as a bad version is. */
    private ContentPin latest(String template, String who) throws SQLException {
        try {
            return contents.pin(template, who);
        } catch (CampaignException e) {
            throw InvalidFields.of("template", e.getMessage());
        }
    }

    private ContentPin stored(String template, int version) throws SQLException {
        try {
            contents.store().version(template, Optional.of(version));
        } catch (CampaignException e) {
            throw InvalidFields.of("version", e.getMessage());
        }
        return new ContentPin(template, version);
    }

    /** The campaign's pins and moves, oldest first. */
    List<ContentPinTable.Change> history(long campaignId) throws SQLException {
        return Transactions.readSnapshot(dataSource, c -> pins.changes(c, campaignId));
    }
}
