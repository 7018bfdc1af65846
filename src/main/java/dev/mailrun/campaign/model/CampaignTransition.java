package dev.mailrun.campaign.model;

import static dev.mailrun.campaign.model.CampaignStatus.CANCELLED;
import static dev.mailrun.campaign.model.CampaignStatus.COMPLETED;
import static dev.mailrun.campaign.model.CampaignStatus.DRAFT;
import static dev.mailrun.campaign.model.CampaignStatus.PAUSED;
import static dev.mailrun.campaign.model.CampaignStatus.RUNNING;
import static dev.mailrun.campaign.model.CampaignStatus.SCHEDULED;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every change of a campaign's status, with the states it may start from: the one place that says
 * which state may follow which. The campaign table applies a transition as one conditional UPDATE,
 * so two actors racing (an operator's pause and a run completing) cannot both win.
 *
 * <pre>
 *            start                complete / expire
 *   draft ──────────► running ───────────────────► completed
 *     │ schedule        ▲ │ ▲  pause / self-pause       │ reopen (requeue unknown)
 *     ▼       begin     │ │ │  resume                   │
 *   scheduled ──────────┘ ▼ │                           ▼
 *        └── pause ───► paused ── resume-later ──► scheduled      (any but final) ── cancel ──► cancelled
 * </pre>
 */
public enum CampaignTransition {
    /** The operator starts a draft whose start time has come (or has none). */
    START(EnumSet.of(DRAFT), RUNNING, "started"),
    /** The operator starts a draft whose start time is still ahead. */
    SCHEDULE(EnumSet.of(DRAFT), SCHEDULED, "started"),
    /** A scheduled campaign's start time came: its sending task begins. */
    BEGIN(EnumSet.of(SCHEDULED), RUNNING, "begun"),
    /** The operator pauses. */
    PAUSE(EnumSet.of(RUNNING, SCHEDULED), PAUSED, "paused"),
    /** The campaign pauses itself (failure rate, hard-bounce rate, a template or relay that cannot work). */
    SELF_PAUSE(EnumSet.of(RUNNING), PAUSED, "paused"),
    /** The operator resumes; the campaign sends at once. */
    RESUME(EnumSet.of(PAUSED), RUNNING, "resumed"),
    /** The operator resumes a campaign whose start time is still ahead. */
    RESUME_LATER(EnumSet.of(PAUSED), SCHEDULED, "resumed"),
    /** Nothing is left to send or retry. */
    COMPLETE(EnumSet.of(RUNNING), COMPLETED, "completed"),
    /** The campaign's expiry came with recipients still waiting: they became expired, the campaign is done. */
    EXPIRE(EnumSet.of(RUNNING), COMPLETED, "expired"),
    /** The operator hands recipients of a completed campaign back to the queue. */
    REOPEN(EnumSet.of(COMPLETED), RUNNING, "reopened"),
    /** The operator cancels; nothing more is sent. */
    CANCEL(EnumSet.of(DRAFT, SCHEDULED, RUNNING, PAUSED), CANCELLED, "cancelled");

    private final Set<CampaignStatus> from;
    private final CampaignStatus to;
    private final String verb;

    CampaignTransition(Set<CampaignStatus> from, CampaignStatus to, String verb) {
        this.from = Set.copyOf(from);
        this.to = to;
        this.verb = verb;
    }

    public Set<CampaignStatus> from() {
        return from;
    }

    public CampaignStatus to() {
        return to;
    }

    boolean allowedFrom(CampaignStatus status) {
        return from.contains(status);
    }

    /** Whether a pause reason goes with this transition (the others clear it). */
    public boolean carriesReason() {
        return to == PAUSED;
    }

    /** The one-line refusal when the campaign is in {@code current}. */
    public String refusal(long campaignId, CampaignStatus current) {
        return "campaign " + campaignId + " is " + current.dbValue() + " and cannot be " + verb + " (it must be "
                + from.stream().sorted().map(CampaignStatus::dbValue).collect(Collectors.joining(" or ")) + ")";
    }
}
