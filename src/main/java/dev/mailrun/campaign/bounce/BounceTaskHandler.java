package dev.mailrun.campaign.bounce;

import dev.mailrun.scheduler.RunContext;
import dev.mailrun.scheduler.RunReport;
import dev.mailrun.scheduler.TaskHandler;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The bounce task: a second task in the same task table, with its own interval, that reads the
 * bounce mailbox once per run (bounces, complaints and unsubscribe requests sent by mail). Each message's effects commit before the message is marked
 * processed, and applying a bounce twice changes nothing, so a crash anywhere is harmless.
 */
public final class BounceTaskHandler implements TaskHandler {

    public static final String NAME = "bounce-check";
    public static final String TASK = "bounces";
    private static final int MESSAGES_PER_RUN = 5_000;

    private final Supplier<BounceProcessor> processor;

    public BounceTaskHandler(Supplier<BounceProcessor> processor) {
        this.processor = processor;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void run(RunContext context) throws Exception {
        BounceSummary summary = processor.get().process(MESSAGES_PER_RUN);
        context.report(new RunReport(1, summary.messagesRead(), null, Duration.ZERO, Map.of(
                "read", summary.messagesRead(), "hard", summary.hard(), "soft", summary.soft(),
                "complaints", summary.complaints(), "refused", summary.refused(), "unrecognised", summary.unrecognised(),
                "unmatched", summary.unmatched(), "unsubscribes", summary.unsubscribes(),
                "invalid-unsubscribes", summary.invalidUnsubscribes(), "paused", summary.pausedCampaigns())));
    }
}
