package dev.mailrun.campaign.send.scope;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.scheduler.RunContext;
import java.time.Clock;

/**
 * What every part of one run shares: the scheduler's run context, the campaign, the settings, the
 * tables, and where it tells what it does (the metrics).
 */
public record RunScope(RunContext ctx, Campaign campaign, SendSettings settings, Tables tables, SendEvents events) {

    public long campaignId() {
        return campaign.id();
    }

    public String runToken() {
        return ctx.runToken();
    }

    /** The scheduler's clock, the one the run's deadline is measured by. */
    public Clock clock() {
        return ctx.clock();
    }
}
