package dev.mailrun.campaign.reply;

import dev.mailrun.scheduler.RunContext;
import dev.mailrun.scheduler.RunReport;
import dev.mailrun.scheduler.TaskHandler;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The replies task: a task of its own in the task table, with its own interval, that reads the
 * replies mailbox once per run and records who replied ({@link ReplyProcessor}). Only configured
 * with {@code replies.imap.host}; what {@code --pick-by replies} decides by.
 */
public final class ReplyTaskHandler implements TaskHandler {

    public static final String NAME = "reply-check";
    public static final String TASK = "replies";
    private static final int MESSAGES_PER_RUN = 5_000;

    private final Supplier<ReplyProcessor> processor;

    public ReplyTaskHandler(Supplier<ReplyProcessor> processor) {
        this.processor = processor;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void run(RunContext context) throws Exception {
        ReplySummary s = processor.get().process(MESSAGES_PER_RUN);
        context.report(new RunReport(1, s.read(), null, Duration.ZERO, Map.of("read", s.read(), "replies", s.replies(),
                "repeated", s.repeated(), "automatic", s.automatic(), "reports", s.reports(), "unmatched", s.unmatched())));
    }
}
