package dev.mailrun.campaign.send;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.scheduler.RunContext;
import java.time.Clock;

/**
 * What every part of one run shares: the scheduler's run context, the campaign, the settings, the
 * tables, and where it tells what it does (the metrics).
 */
record RunScope(RunContext ctx, Campaign campaign, SendSettings settings, Tables tables, SendEvents events) {

    long campaignId() {
        return campaign.id();
    }

    String runToken() {
        return ctx.runToken();
    }

    /** The relay this run sends through ({@code host:port}), as the metrics label it. */
    String relay() {
        return settings.relay();
    }

    /** The scheduler's clock, the one the run's deadline is measured by. */
    Clock clock() {
        return ctx.clock();
    }
}
